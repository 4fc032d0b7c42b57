import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CardCodeParam, CreateCardCodeBody, UpdateCardCodeBody, normalizeCardCode, type CardCodeList } from '#shared/schemas/card-codes';
import type { ZodTypeProvider } from '../../lib/validation';
import { sendPlainPage } from '../public-profile/public-profile.page';
import { createCardCode, listCardCodes, resolveCardCode, updateCardCode } from './card-codes.service';
import { deactivatedCodePage, unknownCodePage } from './card-code-pages';

let deactivatedHtml: string | null = null;
let unknownHtml: string | null = null;

export async function cardCodesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  /**
   * The short link in a card batch's QR code. Active: 302 to the profile, marked as a card view
   * of this code. Turned off: 410 with a polite page. Unknown: 404. Case-insensitive: the QR code
   * carries /C/CODE in upper case (alphanumeric mode), people type /c/code.
   */
  const open = async (req: FastifyRequest<{ Params: { code: string } }>, reply: FastifyReply) => {
    const code = normalizeCardCode(req.params.code);
    const found = code ? await resolveCardCode(ctx, code) : null;
    if (!found) return sendPlainPage(reply, 404, (unknownHtml ??= unknownCodePage()));
    if (!found.active) return sendPlainPage(reply, 410, (deactivatedHtml ??= deactivatedCodePage()));
    return reply
      .status(302)
      .header('location', `/p/${found.profileId}?src=card&code=${found.code}`)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send();
  };
  app.get<{ Params: { code: string } }>('/c/:code', { config: { access: 'public' } }, open);
  app.get<{ Params: { code: string } }>('/C/:code', { config: { access: 'public' } }, open);

  r.get('/api/card-codes', { config: { access: 'user' } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const codes = await listCardCodes(ctx, req.user!.id, ctx.publicUrl(req));
    return { codes } satisfies CardCodeList;
  });

  r.post('/api/card-codes', { config: { access: 'user' }, schema: { body: CreateCardCodeBody } }, async (req, reply) => {
    const created = await createCardCode(ctx, req.user!.id, req.body, ctx.publicUrl(req));
    return reply.status(201).send(created);
  });

  r.patch('/api/card-codes/:code', { config: { access: 'user' }, schema: { params: CardCodeParam, body: UpdateCardCodeBody } }, async (req) =>
    updateCardCode(ctx, req.user!.id, req.params.code, req.body, ctx.publicUrl(req)),
  );
}
