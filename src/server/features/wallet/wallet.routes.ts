import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/wallet';
import { WALLET_MESSAGES, WALLET_RATE_LIMIT } from '#shared/schemas/wallet';
import type { ZodTypeProvider } from '#server/http/validation';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { loadWalletKeys } from './wallet.config';
import { applePass, googleWalletLink, passDisposition, walletStatus } from './wallet.service';

/**
 * Wallet passes of the signed-in owner's own profile (issue 23, decision 23-03). The settings are
 * read here, at start-up: a wallet set up wrongly stops the start with a message naming the setting.
 */
export async function walletRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const keys = loadWalletKeys(ctx.config);

  /** Which buttons to show: { apple, google } (a wallet set up and a profile to add). */
  route(r, api.getWallet, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return walletStatus(ctx, keys, req.user!.id);
  });

  /** "Add to Apple Wallet": the signed pass of the owner's profile, as a download. */
  route(r, api.getWalletApplePkpass, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `wallet:${req.user!.id}`, WALLET_RATE_LIMIT.limit, WALLET_RATE_LIMIT.windowSeconds, WALLET_MESSAGES.rateLimited);
    const pass = await applePass(ctx, keys, req.user!.id, ctx.publicUrl(req));
    return reply
      .header('content-type', 'application/vnd.apple.pkpass')
      .header('content-disposition', passDisposition(pass.fullName))
      .header('cache-control', 'no-store')
      .send(pass.data);
  });

  /** "Save to Google Wallet": the save link (a signed JWT) of the owner's profile. */
  route(r, api.getWalletGoogle, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `wallet:${req.user!.id}`, WALLET_RATE_LIMIT.limit, WALLET_RATE_LIMIT.windowSeconds, WALLET_MESSAGES.rateLimited);
    reply.header('cache-control', 'no-store');
    return { url: await googleWalletLink(ctx, keys, req.user!.id, ctx.publicUrl(req)) };
  });
}
