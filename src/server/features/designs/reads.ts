import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { cards, designEvents } from '#server/db/schema/designs';

/**
 * Read verbs over designs' tables (cards, design events) for other features (issue 34, decision
 * 34-07; docs/architecture.md, "Who owns which tables"). A leaf: it imports designs' own tables
 * and nothing of another feature, so features that designs itself uses (orders, print, templates,
 * profile) read cards here without a cycle. The fragments (subqueries) let a reader keep its one
 * SQL query.
 */

/** The card (its whole row). */
export async function cardById(db: Db | Tx, cardId: number) {
  return (await db.select().from(cards).where(eq(cards.id, cardId)).limit(1)).at(0);
}

/** The card's own profile and the customer's choices (its look). */
export async function cardLookOf(db: Db | Tx, cardId: number) {
  return (await db.select({ profileId: cards.profileId, customizations: cards.customizations }).from(cards).where(eq(cards.id, cardId)).limit(1)).at(0);
}

/** The stored side images of these cards (the production jig sheet). */
export async function cardSideImages(db: Db | Tx, cardIds: number[]) {
  return db.select({ id: cards.id, orderId: cards.orderId, front: cards.frontImageUrl, back: cards.backImageUrl }).from(cards).where(inArray(cards.id, cardIds));
}

/** The review state and images of these cards (an order's page). */
export async function cardReviews(db: Db | Tx, cardIds: number[]) {
  if (!cardIds.length) return [];
  return db
    .select({ id: cards.id, status: cards.status, reviewNotes: cards.reviewNotes, frontImageUrl: cards.frontImageUrl, backImageUrl: cards.backImageUrl })
    .from(cards)
    .where(inArray(cards.id, cardIds));
}

/** The cards of these orders (and these cards), with the name on each, in card order: one query. */
export async function namedCardsOfOrders(db: Db | Tx, orderIds: number[], cardIds: number[]) {
  return db
    .select({ id: cards.id, status: cards.status, orderId: cards.orderId, name: sql<string | null>`${cards.customerProfile}->>'fullName'` })
    .from(cards)
    .where(cardIds.length ? or(inArray(cards.id, cardIds), inArray(cards.orderId, orderIds)) : inArray(cards.orderId, orderIds))
    .orderBy(cards.id);
}

/** The design events of these orders, oldest first (an order's timeline). */
export async function designEventsOfOrders(db: Db | Tx, orderIds: number[]) {
  return db
    .select({ orderId: designEvents.orderId, kind: designEvents.kind, reason: designEvents.reason, at: designEvents.createdAt })
    .from(designEvents)
    .where(inArray(designEvents.orderId, orderIds))
    .orderBy(asc(designEvents.createdAt), asc(designEvents.id));
}

/** Subquery to select from (and join on `user_cards.templateId`): the user's cards as "My cards" shows them. */
export function userCardsQuery(db: Db | Tx, userId: string) {
  return db
    .select({
      id: cards.id,
      templateId: cards.templateId,
      cardType: cards.cardType,
      status: cards.status,
      customizations: cards.customizations,
      frontImageUrl: cards.frontImageUrl,
      backImageUrl: cards.backImageUrl,
      qrCodeUrl: cards.qrCodeUrl,
      orderId: cards.orderId,
      reviewNotes: cards.reviewNotes,
      submittedAt: cards.submittedAt,
    })
    .from(cards)
    .where(eq(cards.userId, userId))
    .as('user_cards');
}
