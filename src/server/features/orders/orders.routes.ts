import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/orders';
import { ARTWORK_MAX_BYTES, formatUsd } from '#shared/catalogue';
import { IDEMPOTENCY_KEY_RE, OrderCreateResponse, type OrderClaimResult } from '#shared/schemas/orders';
import type { ZodTypeProvider } from '#server/http/validation';
import { badRequest } from '#server/http/http-errors';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { createOrder, getOrderStatusView, userKeyScope, visitorKeyScope } from './orders.service';
import { uploadArtwork } from './artwork.service';
import { attachOrdersByVerifiedEmail, claimOrder, getClaim } from './order-claim.service';
import { listMyOrders } from './order-view';
import { updateShippingAddress } from './order-address.service';
import { checkoutTerms } from './order-design';
import { endSession } from '#server/features/auth/public-api';
import { startSession } from '#server/plugins/session';

/** The order page's form session (a random token made with crypto): the signed-out caller's key scope. */
const FORM_SESSION_RE = /^[A-Za-z0-9_.:-]{16,200}$/;

/** Claim links tried per IP (a token is unguessable; this keeps junk traffic cheap). */
const CLAIM_IP_LIMIT = { limit: 20, windowSeconds: 15 * 60 };

export async function orderRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // the spec's order call: one order per submit; a retry with the same key answers the same order
  route(r, api.postOrder, async (req, reply) => {
    const header = req.headers['idempotency-key'];
    const idempotencyKey = typeof header === 'string' && header !== '' ? header.trim() : undefined;
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_RE.test(idempotencyKey)) {
      throw badRequest('Invalid Idempotency-Key header', { idempotencyKey: 'Use 8-100 letters, digits, dots, colons, dashes or underscores' });
    }
    // the key belongs to its caller (issue 33): the account, or signed out the visitor's own form session
    const session = req.headers['x-form-session'];
    const formSession = typeof session === 'string' && session !== '' ? session.trim() : undefined;
    // bounded: a request header (Node caps the headers at 16 KB); the pattern is anchored and linear
    if (formSession !== undefined && !FORM_SESSION_RE.test(formSession)) {
      throw badRequest('Invalid X-Form-Session header', { formSession: 'Use 16-200 letters, digits, dots, colons, dashes or underscores' });
    }
    await enforceRateLimit(app.ctx.rateLimiter, `order:ip:${clientKey(req)}`, 5, 60, 'Too many orders from this address. Please wait a minute and try again.');
    const { order, replayed, statusUrl } = await createOrder(app.ctx, req.body, {
      source: 'order-form',
      userId: req.user?.id,
      idempotencyKey,
      idempotencyScope: req.user ? userKeyScope(req.user.id) : visitorKeyScope(app.ctx.sessionSecret, { formSession, ip: clientKey(req) }),
      baseUrl: app.ctx.publicUrl(req),
    });
    const body: OrderCreateResponse = {
      id: order.id,
      orderId: order.id,
      status: order.status,
      totalCents: order.totalCents,
      total: formatUsd(order.totalCents),
      statusUrl,
      checkoutUrl: order.checkoutUrl,
      replayed,
      message: order.checkoutUrl
        ? 'Order submitted. We e-mailed you a checkout link.'
        : 'Order submitted. We e-mailed you a link to your order page.',
    };
    return reply.status(replayed ? 200 : 201).send(body);
  });

  // the customer's order page, reached only by the unguessable token from the e-mail
  route(r, api.getOrderStatusByToken, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    return getOrderStatusView(app.ctx, req.params.token, app.ctx.publicUrl(req));
  });

  // the customer corrects the delivery address until the order ships (issue 35); 409 after that
  route(r, api.patchOrderStatusByTokenAddress, async (req, reply) => {
      await enforceRateLimit(app.ctx.rateLimiter, `order-address:ip:${clientKey(req)}`, 10, 60, 'Too many changes from this address. Please wait a minute and try again.');
      reply.header('cache-control', 'no-store');
      return updateShippingAddress(app.ctx, req.params.token, req.body.shippingAddress, app.ctx.publicUrl(req));
    });

  // the order form's one optional artwork file; answers [{ url }] (signed out also its uploadToken, issue 19)
  route(r, api.postUploadArtwork, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `artwork:ip:${clientKey(req)}`, 10, 600, 'Too many uploads from this address. Please try again later.');
    const saved = await uploadArtwork(app.ctx, req, { userId: req.user?.id ?? null, maxBytes: ARTWORK_MAX_BYTES });
    return reply.status(201).send([saved.uploadToken ? { url: saved.url, uploadToken: saved.uploadToken } : { url: saved.url }]);
  });

  // how a new order is paid and the words its checkout shows (issue 35: tax note, invoice mode)
  route(r, api.getCheckoutTerms, async () => checkoutTerms(app.ctx));

  // My orders (issue 20): the signed-in customer's orders; first gathers those placed signed out
  // with the account's verified address
  route(r, api.getOrdersMine, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    await attachOrdersByVerifiedEmail(app.ctx, req.user!.id);
    return { orders: await listMyOrders(app.ctx, req.user!.id, app.ctx.publicUrl(req)) };
  });

  // the claim link of a visitor's order (issue 20): what it claims, then the claim itself
  route(r, api.getOrdersClaimByToken, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `claim:ip:${clientKey(req)}`, CLAIM_IP_LIMIT.limit * 3, CLAIM_IP_LIMIT.windowSeconds);
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    return getClaim(app.ctx, req.params.token);
  });

  route(r, api.postOrdersClaim, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `claim:ip:${clientKey(req)}`, CLAIM_IP_LIMIT.limit, CLAIM_IP_LIMIT.windowSeconds);
    const result = await claimOrder(app.ctx, req.body, req.user ?? null, app.ctx.publicUrl(req));
    if (result.accountCreated) {
      if (req.sessionId) await endSession(app.ctx, req.sessionId);
      await startSession(app, req, reply, result.user.id);
    }
    return {
      orderId: result.order.id,
      profileId: result.profileId,
      accountCreated: result.accountCreated,
      user: result.user,
      statusPath: result.statusPath,
    } satisfies OrderClaimResult;
  });
}
