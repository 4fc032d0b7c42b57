import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Endpoint } from '#shared/contracts/endpoint';
import { getAdminOrdersCsv, patchAdminOrdersById, postAdminOrdersByIdPayments } from '#shared/contracts/admin';
import { getAdminAuditCsv } from '#shared/contracts/audit';
import { getAdminOrdersByIdNfcCsv, postAdminProductionExport } from '#shared/contracts/production';
import { postSvgFiles, postSvgFilesByTemplateIdRollback } from '#shared/contracts/templates';
import { forbiddenCode } from '#server/http/http-errors';
import { RECENT_AUTH_REQUIRED, TWO_FACTOR_MESSAGES } from '#shared/schemas/auth';

/**
 * Sensitive staff actions need a sign-in or a factor check within RECENT_AUTH_MINUTES (issue 39,
 * decision 39-01): template uploads and rollbacks, the exports (orders CSV, production ZIP, an
 * order's NFC CSV, the identity audit log CSV), refunds and cancellations. Staff roles change
 * only through the operator's CLI (`npm run admin`), which no web session reaches.
 * `when`: the action is sensitive only for some bodies (a refund, not a payment).
 */
const SENSITIVE: Array<{ endpoint: Endpoint; when?: (body: any) => boolean }> = [
  { endpoint: postSvgFiles },
  { endpoint: postSvgFilesByTemplateIdRollback },
  { endpoint: getAdminOrdersCsv },
  { endpoint: getAdminOrdersByIdNfcCsv },
  { endpoint: getAdminAuditCsv },
  { endpoint: postAdminProductionExport },
  { endpoint: patchAdminOrdersById, when: (b) => b?.status === 'cancelled' },
  { endpoint: postAdminOrdersByIdPayments, when: (b) => b?.kind === 'refund' },
];

export function isRecentlyAuthenticated(req: FastifyRequest): boolean {
  const minutes = req.server.ctx.config.RECENT_AUTH_MINUTES;
  if (minutes === 0) return true;
  const at = req.sessionAuth?.authenticatedAt;
  return !!at && Date.now() - at.getTime() <= minutes * 60_000;
}

/** Adds the recent-auth check (once the body is parsed, before it is validated) to the sensitive routes as they are registered. */
export function registerRecentAuth(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const entry = SENSITIVE.find((s) => s.endpoint.path === route.url && methods.includes(s.endpoint.method));
    if (!entry) return;
    const check = async (req: FastifyRequest) => {
      if (entry.when && !entry.when(req.body)) return;
      if (!isRecentlyAuthenticated(req)) throw forbiddenCode(TWO_FACTOR_MESSAGES.recentAuth, RECENT_AUTH_REQUIRED);
    };
    // before validation (a stale session learns nothing about the body it should send), after parsing (the body's kind)
    const existing = route.preValidation ? (Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation]) : [];
    route.preValidation = [check, ...existing];
  });
}
