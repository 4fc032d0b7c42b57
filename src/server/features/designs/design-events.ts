import type { DesignEventKind } from '#shared/schemas/orders';
import type { Db, Tx } from '#server/db/client';
import { designEvents } from '#server/db/schema/designs';

/**
 * Writes one step of an order's design review loop (submitted, rejected with its reason,
 * resubmitted, approved), in the caller's transaction. Answers the event's id (e-mail dedupe keys).
 * The order's timeline (orders' `order-view.ts`) reads these rows.
 */
export async function recordDesignEvent(
  tx: Db | Tx,
  e: { orderId: number | null; cardId: number; kind: DesignEventKind; reason?: string | null; actorLabel: string },
): Promise<number> {
  const [row] = await tx
    .insert(designEvents)
    .values({ orderId: e.orderId, cardId: e.cardId, kind: e.kind, reason: e.reason?.trim() || null, actorLabel: e.actorLabel })
    .returning({ id: designEvents.id });
  return row.id;
}
