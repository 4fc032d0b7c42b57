import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { outbox } from '#server/db/schema/index';
import { queryRow } from '#server/db/rows';

export interface OutgoingEmail {
  /** the event this e-mail belongs to, e.g. `order-received:42`; the same key is only ever queued once */
  dedupeKey: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** the order this e-mail is about (staff search the outbox by order number) */
  orderId?: number | null;
}

/** Queue an e-mail inside the caller's transaction (so it exists exactly when the event does). */
export async function enqueueEmail(tx: Db | Tx, email: OutgoingEmail): Promise<void> {
  await tx
    .insert(outbox)
    .values({
      dedupeKey: email.dedupeKey,
      kind: email.kind,
      toAddress: email.to,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html,
      orderId: email.orderId ?? null,
    })
    .onConflictDoNothing({ target: outbox.dedupeKey });
}

/** Queue many e-mails in the caller's transaction, a few hundred rows per statement (bulk invitations). */
export async function enqueueEmails(tx: Db | Tx, emails: OutgoingEmail[]): Promise<void> {
  for (let i = 0; i < emails.length; i += 200) {
    const chunk = emails.slice(i, i + 200);
    await tx
      .insert(outbox)
      .values(chunk.map((email) => ({ dedupeKey: email.dedupeKey, kind: email.kind, toAddress: email.to, subject: email.subject, textBody: email.text, htmlBody: email.html, orderId: email.orderId ?? null })))
      .onConflictDoNothing({ target: outbox.dedupeKey });
  }
}

/** A failed e-mail goes back to pending with a fresh retry budget (staff's Send again); false when it is not failed (or gone). */
export async function requeueFailedEmail(db: Db | Tx, id: number): Promise<boolean> {
  const rows = await db
    .update(outbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date(), lockedUntil: null })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'failed')))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

export async function outboxBacklog(db: Db): Promise<number> {
  const row = await queryRow<{ n: number }>(db, sql`select count(*)::int as n from outbox where status = 'pending'`);
  return Number(row?.n ?? 0);
}
