import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { users } from '#server/db/schema/auth';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { staffNoticeEmail } from './order-emails';

/** Who gets the staff e-mails: STAFF_NOTIFY_EMAILS, by default every admin account. */
async function staffRecipients(ctx: AppContext, db: Db | Tx): Promise<string[]> {
  const setting = ctx.config.STAFF_NOTIFY_EMAILS;
  if (setting === 'none') return [];
  if (setting !== 'admins') return setting;
  const rows = await db.select({ email: users.email }).from(users).where(eq(users.role, 'admin')).limit(50);
  return rows.map((r) => r.email);
}

/**
 * Tells staff about a new order or a design waiting for review (issue 20): one e-mail per
 * recipient, queued in the caller's transaction (so it exists exactly when the event does).
 */
export async function notifyStaff(
  ctx: AppContext,
  tx: Db | Tx,
  p: { kind: 'new-order' | 'design-waiting'; orderId: number; customerName: string; totalCents: number; detail: string; eventKey: string; baseUrl: string },
): Promise<void> {
  const to = await staffRecipients(ctx, tx);
  const adminUrl = `${p.baseUrl.replace(/\/+$/, '')}/admin`;
  for (const address of to) {
    await enqueueEmail(tx, staffNoticeEmail({ ...p, to: address, adminUrl }));
  }
}
