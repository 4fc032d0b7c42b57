import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/engagement';
import { profileThanksPath } from '#shared/routes';
import { LEAD_HONEYPOT_FIELD, LEAD_MESSAGES, LeadCreateBody, type LeadFormSetting, type LeadSubmitted } from '#shared/schemas/engagement';
import type { ContactExchangeField } from '#shared/engagement/contact-exchange-form';
import { issuesToFieldErrors, parseOrThrow, RequestValidationError, type ZodTypeProvider } from '#server/http/validation';
import { badRequest, HttpError, notFound } from '#server/http/http-errors';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { loadPublicProfile } from '#server/features/profile/public-api';
import { sendPlainPage } from '#server/http/html-page';
import { deleteLead, getLeadFormSetting, leadsForExport, listLeads, setLeadFormSetting, submitLead } from './leads.service';
import { exportFileName, leadsCsv, leadsVcf } from './leads-export';
import { leadFormErrorPage, leadMessagePage, leadThanksPage } from './lead-pages';

/** Public form limit (guide: public forms 5 per minute per IP). */
export const LEAD_RATE_LIMIT = { limit: 5, windowSeconds: 60 };

const TEXT_FIELDS: ContactExchangeField[] = ['name', 'email', 'phone', 'company', 'note'];

/** The plain HTML form's fields (multipart/form-data, text only). */
async function readFormFields(req: FastifyRequest): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts({ limits: { files: 1, fields: 20, fieldSize: 8 * 1024, parts: 21 } })) {
      if (part.type === 'file') {
        part.file.resume();
        throw badRequest('Files are not accepted here');
      }
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw badRequest('Malformed form');
  }
  return fields;
}

/** The HTML form's strings in the JSON contract's shape (unknown fields are ignored). */
function formToBody(f: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = { consent: ['on', 'true', 'yes', '1'].includes((f.consent ?? '').toLowerCase()) };
  for (const k of TEXT_FIELDS) if (f[k] !== undefined) body[k] = f[k];
  if (f[LEAD_HONEYPOT_FIELD] !== undefined) body[LEAD_HONEYPOT_FIELD] = f[LEAD_HONEYPOT_FIELD];
  return body;
}

// bounded: a request header (Node caps the headers at 16 KB)
const wantsHtml = (req: FastifyRequest) => /\btext\/html\b/.test(String(req.headers.accept ?? ''));

export async function leadsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  route(r, api.postPByIdLeads, async (req, reply) => {
    const id = req.params.id;
    const html = req.isMultipart() && wantsHtml(req);
    let raw: Record<string, string> = {};
    try {
      await enforceRateLimit(ctx.rateLimiter, `lead:ip:${clientKey(req)}`, LEAD_RATE_LIMIT.limit, LEAD_RATE_LIMIT.windowSeconds, LEAD_MESSAGES.rateLimited);
      let input: unknown;
      if (req.isMultipart()) {
        raw = await readFormFields(req);
        input = formToBody(raw);
      } else {
        input = req.body;
      }
      const body = parseOrThrow(LeadCreateBody, input ?? {});
      await submitLead(ctx, id, body, ctx.publicUrl(req));
      if (html) return reply.status(303).header('location', profileThanksPath(id)).header('cache-control', 'no-store').send();
      return reply.status(201).send({ message: LEAD_MESSAGES.sent } satisfies LeadSubmitted);
    } catch (err) {
      if (!html) throw err;
      const profile = (await loadPublicProfile(ctx, id))?.profile ?? null;
      if (err instanceof RequestValidationError && profile) {
        const errors = issuesToFieldErrors(err.issues);
        const values = { ...Object.fromEntries(TEXT_FIELDS.map((k) => [k, raw[k] ?? ''])), consent: formToBody(raw).consent === true };
        return sendPlainPage(reply, 400, leadFormErrorPage(profile, { values, errors, message: 'Please check the highlighted fields.' }));
      }
      if (err instanceof HttpError) {
        if (err.headers) reply.headers(err.headers);
        if (err.statusCode === 404 || !profile) return sendPlainPage(reply, 404, leadMessagePage(null, 'Profile Not Found', 'This profile does not exist or has been removed.'));
        if (err.statusCode === 429) return sendPlainPage(reply, 429, leadMessagePage(profile, 'Please wait a minute', LEAD_MESSAGES.rateLimited));
        if (err.statusCode === 403) return sendPlainPage(reply, 403, leadMessagePage(profile, 'Contact exchange is off', LEAD_MESSAGES.disabled));
        return sendPlainPage(reply, err.statusCode, leadMessagePage(profile, 'Your details were not sent', err.message));
      }
      throw err;
    }
  });

  /** Whether a public profile takes contact details (the SPA's render of /p/{id} asks). */
  route(r, api.getPByIdLeadForm, async (req, reply) => {
    const entry = await loadPublicProfile(ctx, req.params.id);
    if (!entry) throw notFound('Profile not found');
    reply.header('cache-control', 'no-cache');
    return { enabled: entry.leadFormEnabled } satisfies LeadFormSetting;
  });

  /** Where the plain form lands after sending (Post/Redirect/Get). */
  route(r, api.getPagePByIdThanks, async (req, reply) => {
    const entry = await loadPublicProfile(ctx, req.params.id);
    if (!entry) return sendPlainPage(reply, 404, leadMessagePage(null, 'Profile Not Found', 'This profile does not exist or has been removed.'));
    return sendPlainPage(reply, 200, leadThanksPage(entry.profile));
  });

  route(r, api.getLeads, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return listLeads(ctx, req.user!.id, req.query);
  });

  route(r, api.getLeadsCsv, async (req, reply) => {
    const list = await leadsForExport(ctx, req.user!.id);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName('csv')}"`)
      .header('cache-control', 'no-store')
      .send(leadsCsv(list));
  });

  route(r, api.getLeadsVcf, async (req, reply) => {
    const list = await leadsForExport(ctx, req.user!.id);
    return reply
      .header('content-type', 'text/vcard; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName('vcf')}"`)
      .header('cache-control', 'no-store')
      .send(leadsVcf(list));
  });

  route(r, api.deleteLeadsById, async (req) => {
    await deleteLead(ctx, req.user!.id, req.params.id);
    return { message: 'Lead deleted' };
  });

  route(r, api.getProfileLeadForm, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getLeadFormSetting(ctx, req.user!.id);
  });

  route(r, api.putProfileLeadForm, async (req) =>
    setLeadFormSetting(ctx, req.user!.id, req.body.enabled));
}
