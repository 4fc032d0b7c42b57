import { eq, sql } from 'drizzle-orm';
import type { Tx } from '#server/db/client';
import { orders } from '#server/db/schema/orders';
import { randomToken } from '#server/infra/crypto';

const ANONYMIZED_NAME = 'Deleted customer';

/**
 * An account is deleted (account's deletion, in its transaction): its orders stay for the
 * business's records with the customer's personal fields blanked and `anonymized_at` set; the old
 * status link (sent by e-mail) stops working.
 */
export async function anonymizeOrdersOfUser(tx: Tx, userId: string): Promise<void> {
  await tx
    .update(orders)
    .set({
      userId: null,
      customerName: ANONYMIZED_NAME,
      email: '',
      phone: null,
      companyName: null,
      position: null,
      address: null,
      specialRequests: null,
      artworkUrl: null,
      checkoutUrl: null,
      idempotencyKey: null,
      // the old status link (sent by e-mail) stops working
      statusToken: sql`${randomToken(24)} || '-' || ${orders.id}::text`,
      anonymizedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(orders.userId, userId));
}
