import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/shopify';
import { STORE_REFERENCE_PRODUCTS } from '#shared/catalogue';
import { type StoreConnectionResult, type StoreStatus, type StoreWebhookAnswer } from '#shared/schemas/shopify';
import type { ZodTypeProvider } from '#server/http/validation';
import { badRequest, unauthorized } from '#server/http/http-errors';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { storefrontFor } from './shopify.checkout';
import { MESSAGES, STOREFRONT_API_VERSION, StorefrontError } from './storefront-client';
import { readStoreEvent, STORE_TOPICS, verifyStoreSignature, type StoreOrderEventHandler, type StoreTopic } from './store-webhooks';

/** the largest store webhook body read (an order with many lines stays far below) */
const STORE_WEBHOOK_BODY_LIMIT = 512 * 1024;
/** store deliveries per minute from one address (the store retries; a forger is refused sooner or later) */
const STORE_WEBHOOK_RATE = { limit: 300, windowSeconds: 60 };

/**
 * Store pages' calls (staff only: they show the shop's set-up and make calls to the store), and the
 * store's order webhooks (public, signature-checked; `onStoreOrderEvent` comes from routes.ts).
 */
export async function shopifyRoutes(app: FastifyInstance, opts: { onStoreOrderEvent?: StoreOrderEventHandler } = {}) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  route(r, api.getShopifyStatus, async (): Promise<StoreStatus> => {
    const c = app.ctx.config;
    return {
      configured: !!(c.SHOPIFY_STORE_DOMAIN && c.SHOPIFY_STOREFRONT_TOKEN),
      apiVersion: STOREFRONT_API_VERSION,
      storeDomain: c.SHOPIFY_STORE_DOMAIN ?? null,
      settings: [
        { name: 'SHOPIFY_STORE_DOMAIN', present: !!c.SHOPIFY_STORE_DOMAIN, required: true },
        { name: 'SHOPIFY_STOREFRONT_TOKEN', present: !!c.SHOPIFY_STOREFRONT_TOKEN, required: true },
        { name: 'SHOPIFY_API_URL', present: !!c.SHOPIFY_API_URL, required: false },
        { name: 'SHOPIFY_WEBHOOK_SECRET', present: !!c.SHOPIFY_WEBHOOK_SECRET, required: false },
      ],
      referenceProducts: STORE_REFERENCE_PRODUCTS.map((p) => ({ ...p })),
    };
  });

  route(r, api.postShopifyTestConnection, async (): Promise<StoreConnectionResult> => {
    const client = storefrontFor(app.ctx);
    const started = Date.now();
    if (!client) return { ok: false, configured: false, message: MESSAGES.notInitialized, apiVersion: STOREFRONT_API_VERSION, durationMs: 0 };
    try {
      const shop = await client.shop();
      const products = await client.fetchAllProducts();
      return {
        ok: true,
        configured: true,
        apiVersion: STOREFRONT_API_VERSION,
        shopName: shop.name,
        storeDomain: client.storeDomain,
        productCount: products.length,
        products: products.slice(0, 10).map((p) => ({ title: p.title, price: p.variants[0]?.price.amount ?? null, variants: p.variants.length })),
        message: products.length ? `Connected to ${shop.name}` : MESSAGES.noProducts,
        durationMs: Date.now() - started,
      };
    } catch (err) {
      const message = err instanceof StorefrontError ? err.message : MESSAGES.unknown;
      return { ok: false, configured: true, apiVersion: STOREFRONT_API_VERSION, storeDomain: client.storeDomain, message, durationMs: Date.now() - started };
    }
  });

  // The store's order webhooks (issue 35, decision 35-01). The signature covers the raw bytes, so this
  // route alone (a plugin scope of its own) reads its body as a Buffer; nothing is parsed or written
  // before the signature holds.
  const onEvent = opts.onStoreOrderEvent;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: STORE_WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));
    route(scope.withTypeProvider<ZodTypeProvider>(), api.postShopifyWebhooks, { bodyLimit: STORE_WEBHOOK_BODY_LIMIT }, async (req): Promise<StoreWebhookAnswer> => {
        await enforceRateLimit(app.ctx.rateLimiter, `store-webhook:ip:${clientKey(req)}`, STORE_WEBHOOK_RATE.limit, STORE_WEBHOOK_RATE.windowSeconds);
        const header = (name: string) => {
          const v = req.headers[name];
          return typeof v === 'string' ? v : undefined;
        };
        const secret = app.ctx.config.SHOPIFY_WEBHOOK_SECRET;
        const raw = Buffer.isBuffer(req.body) ? req.body : null;
        if (!secret || !raw || !verifyStoreSignature(secret, raw, header('x-shopify-hmac-sha256'))) {
          if (!secret) req.log.warn('store webhook refused: SHOPIFY_WEBHOOK_SECRET is not set');
          throw unauthorized('Invalid webhook signature');
        }
        const topic = header('x-shopify-topic') ?? '';
        if (!(STORE_TOPICS as readonly string[]).includes(topic)) return { ok: true, outcome: 'ignored' };
        const webhookId = header('x-shopify-webhook-id')?.trim() ?? '';
        if (!webhookId || webhookId.length > 200) throw badRequest('Missing webhook id', { 'x-shopify-webhook-id': 'The webhook id header is required' });
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw badRequest('The webhook body is not JSON');
        }
        const event = readStoreEvent(topic as StoreTopic, body);
        if (!event || !onEvent) {
          req.log.warn({ topic, webhookId }, 'store webhook without an order we can read: ignored');
          return { ok: true, outcome: 'ignored' };
        }
        return { ok: true, outcome: await onEvent(app.ctx, webhookId, topic as StoreTopic, event) };
      });
  });
}
