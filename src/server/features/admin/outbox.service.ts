import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { OutboxEmail, OutboxEmailSummary, OutboxPage } from '#shared/schemas/admin';
import type { AppContext } from '#server/context';
import { outbox } from '#server/db/schema/infra';
import { conflict, notFound } from '#server/http/http-errors';
import { redactOneTimeLinks } from '#server/infra/mail/one-time-links';
import { requeueFailedEmail } from '#server/infra/mail/outbox';
import { likePattern } from './admin-orders.service';
import { outboxCounts } from './testing-summary.service';

const summaryColumns = {
  id: outbox.id,
  orderId: outbox.orderId,
  kind: outbox.kind,
  toAddress: outbox.toAddress,
  subject: outbox.subject,
  status: outbox.status,
  attempts: outbox.attempts,
  lastError: outbox.lastError,
  createdAt: outbox.createdAt,
  sentAt: outbox.sentAt,
};

function toSummary(r: { id: number; orderId: number | null; kind: string; toAddress: string; subject: string; status: string; attempts: number; lastError: string | null; createdAt: Date; sentAt: Date | null }): OutboxEmailSummary {
  return { ...r, createdAt: r.createdAt.toISOString(), sentAt: r.sentAt ? r.sentAt.toISOString() : null };
}

/**
 * The WHERE of the staff outbox (issue 37): a part of the address or the subject (case-insensitive,
 * the staff's own % and _ taken literally), the order it is about, its status. The outbox stays
 * small (sent e-mails are pruned after OUTBOX_KEEP_DAYS) and every answer is one page.
 */
function outboxFilter(opts: { q?: string; order?: number; status?: string }): SQL | undefined {
  const parts: SQL[] = [];
  const term = opts.q?.trim();
  if (term) {
    const pattern = likePattern(term);
    parts.push(sql`(lower(${outbox.toAddress}) like ${pattern} or lower(${outbox.subject}) like ${pattern})`);
  }
  if (opts.order !== undefined) parts.push(eq(outbox.orderId, opts.order));
  if (opts.status) parts.push(eq(outbox.status, opts.status));
  return parts.length ? and(...parts) : undefined;
}

/** The e-mail outbox, newest first: without SMTP this is where a developer or admin reads the e-mails. */
export async function listOutbox(ctx: AppContext, opts: { q?: string; order?: number; status?: string; page: number; pageSize: number }): Promise<OutboxPage> {
  const where = outboxFilter(opts);
  const rows = await ctx.db
    .select(summaryColumns)
    .from(outbox)
    .where(where)
    .orderBy(desc(outbox.id))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  const [{ n }] = await ctx.db.select({ n: count() }).from(outbox).where(where);
  const c = await outboxCounts(ctx);
  return {
    emails: rows.map(toSummary),
    total: Number(n),
    page: opts.page,
    pageSize: opts.pageSize,
    counts: { pending: c.pending, sent: c.sent, failed: c.failed },
    smtpConfigured: ctx.mail.configured,
  };
}

export async function getOutboxEmail(ctx: AppContext, id: number): Promise<OutboxEmail> {
  const [r] = await ctx.db.select({ ...summaryColumns, textBody: outbox.textBody, htmlBody: outbox.htmlBody }).from(outbox).where(eq(outbox.id, id)).limit(1);
  if (!r) throw notFound('E-mail not found');
  // staff see that a one-time link was sent, never the link, also while the e-mail waits (issue 33)
  return { ...toSummary(r), textBody: redactOneTimeLinks(r.textBody), htmlBody: redactOneTimeLinks(r.htmlBody) };
}

/** Sends a failed e-mail again (after SMTP is fixed): back to pending with a fresh retry budget. */
export async function retryOutboxEmail(ctx: AppContext, id: number): Promise<OutboxEmail> {
  const [current] = await ctx.db.select({ status: outbox.status }).from(outbox).where(eq(outbox.id, id)).limit(1);
  if (!current) throw notFound('E-mail not found');
  if (current.status !== 'failed') throw conflict('Only a failed e-mail can be sent again');
  if (!(await requeueFailedEmail(ctx.db, id))) throw conflict('Only a failed e-mail can be sent again');
  ctx.outbox.kick();
  return getOutboxEmail(ctx, id);
}
