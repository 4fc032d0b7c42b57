import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '#server/db/client';
import { webhookDeliveries, webhookEndpoints } from '#server/db/schema/webhooks';

/**
 * Disables every webhook endpoint the user created (their own and their team's) with the reason
 * recorded, in the caller's transaction; what waited for those endpoints is marked failed
 * (Redeliver after enabling again). Account settings call it when a password is reset or changed
 * (issue 33, decision 33-01). Returns how many endpoints it disabled.
 */
export async function disableEndpointsOfUser(tx: Tx, userId: string, reason: string): Promise<number> {
  const endpoints = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledAt: sql`now()`, disabledReason: reason, updatedAt: sql`now()` })
    .where(eq(webhookEndpoints.userId, userId))
    .returning({ id: webhookEndpoints.id });
  if (endpoints.length) {
    await tx
      .update(webhookDeliveries)
      .set({ status: 'failed', lastError: 'endpoint disabled', lockedUntil: null })
      .where(and(inArray(webhookDeliveries.endpointId, endpoints.map((e) => e.id)), eq(webhookDeliveries.status, 'pending')));
  }
  return endpoints.length;
}
