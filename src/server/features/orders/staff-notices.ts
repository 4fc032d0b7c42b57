import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { users } from '#server/db/schema/auth';
import { orders } from '#server/db/schema/orders';
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

async function adminExists(db: Db | Tx): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  return rows.length > 0;
}

/**
 * Staff saw the orders placed while no admin existed (the admin dashboard's to-do): they leave
 * the to-do. Returns how many were marked (ids already seen, or not on the to-do, are skipped).
 */
export async function markOrdersSeenByStaff(db: Db, orderIds: number[], staffId: string): Promise<number> {
  if (!orderIds.length) return 0;
  const rows = await db
    .update(orders)
    .set({ staffSeenAt: new Date(), staffSeenBy: staffId })
    .where(and(inArray(orders.id, orderIds), eq(orders.placedWithoutStaff, true), isNull(orders.staffSeenAt)))
    .returning({ id: orders.id });
  return rows.length;
}

/**
 * Tells staff about a new order or a design waiting for review (issue 20): one e-mail per
 * recipient, queued in the caller's transaction (so it exists exactly when the event does).
 */
export async function notifyStaff(
  ctx: AppContext,
  tx: Db | Tx,
  p: { kind: 'new-order' | 'design-waiting'; orderId: number; customerName: string; totalCents: number; detail: string; eventKey: string; baseUrl: string; placed?: boolean },
): Promise<void> {
  // an order placed while no admin account exists is nobody's yet: the first admin's to-do (decision 37-02)
  if (p.placed && !(await adminExists(tx))) await tx.update(orders).set({ placedWithoutStaff: true }).where(eq(orders.id, p.orderId));
  const to = await staffRecipients(ctx, tx);
  const adminUrl = `${p.baseUrl.replace(/\/+$/, '')}/admin`;
  for (const address of to) {
    await enqueueEmail(tx, staffNoticeEmail({ ...p, to: address, adminUrl }));
  }
}
