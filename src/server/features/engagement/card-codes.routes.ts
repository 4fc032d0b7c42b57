import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/engagement';
import { cardCodePath, publicProfilePath } from '#shared/routes';
import { CardCodeOpenParams, normalizeCardCode, type CardCodeList } from '#shared/schemas/engagement';
import type { z } from 'zod';
import type { ZodTypeProvider } from '#server/http/validation';
import { sendPlainPage } from '#server/http/html-page';
import { createCardCode, listCardCodes, resolveCardCode, updateCardCode } from './card-codes.service';
import { companyCodePage, companyVcard, deactivatedCodePage, unknownCodePage, waitingCodePage } from './card-code-pages';

let deactivatedHtml: string | null = null;
let unknownHtml: string | null = null;
let waitingHtml: string | null = null;

export async function cardCodesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  /**
   * The short link in a card batch's QR code. Active: 302 to the profile, marked as a card view
   * of this code. Turned off: 410 with a polite page. Unknown: 404. No profile yet: 200 with a page
   * that invites the buyer to claim the order from the order e-mail. Case-insensitive: the QR code
   * carries /C/CODE in upper case (alphanumeric mode), people type /c/code.
   */
  const open = async (req: FastifyRequest<{ Params: z.infer<typeof CardCodeOpenParams> }>, reply: FastifyReply) => {
    const code = normalizeCardCode(req.params.code);
    const found = code ? await resolveCardCode(ctx, code) : null;
    if (!found) return sendPlainPage(reply, 404, (unknownHtml ??= unknownCodePage()));
    // a team card of someone who left: the company's contact details, never the person's (issue 21)
    if (!found.active && found.company) return sendPlainPage(reply, 410, companyCodePage(found.company, `${cardCodePath(found.code.toLowerCase())}/company.vcf`));
    if (!found.active) return sendPlainPage(reply, 410, (deactivatedHtml ??= deactivatedCodePage()));
    // the order's buyer has not claimed it (or made a profile) yet: an invitation, naming no one
    if (!found.profileId) return sendPlainPage(reply, 200, (waitingHtml ??= waitingCodePage()));
    return reply
      .status(302)
      .header('location', publicProfilePath(found.profileId, { src: 'card', code: found.code }))
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send();
  };
  route(r, api.getPageCByCode, open);

  /** The company's contact file, from the page a turned-off team card shows (names no person). */
  route(r, api.getPageCByCodeCompanyVcf, async (req, reply) => {
    const code = normalizeCardCode(req.params.code);
    const found = code ? await resolveCardCode(ctx, code) : null;
    if (!found || found.active || !found.company) return sendPlainPage(reply, 404, (unknownHtml ??= unknownCodePage()));
    const name = found.company.name.replace(/[^\w .-]+/g, ' ').trim() || 'company';
    return reply
      .header('content-type', 'text/vcard; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}.vcf"`)
      .header('cache-control', 'no-cache')
      .send(companyVcard(found.company));
  });
  route(r, api.getPageCByCodeUpper, open);

  route(r, api.getCardCodes, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const codes = await listCardCodes(ctx, req.user!.id, ctx.publicUrl(req));
    return { codes } satisfies CardCodeList;
  });

  route(r, api.postCardCodes, async (req, reply) => {
    const created = await createCardCode(ctx, req.user!.id, req.body, ctx.publicUrl(req));
    return reply.status(201).send(created);
  });

  route(r, api.patchCardCodesByCode, async (req) =>
    updateCardCode(ctx, req.user!.id, req.params.code, req.body, ctx.publicUrl(req)));
}
