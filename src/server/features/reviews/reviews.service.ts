import { and, desc, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  PENDING_MESSAGE,
  PUBLISHED_MESSAGE,
  parseOrderNumber,
  type AdminReview,
  type AdminReviewFilter,
  type ReviewCreateBody,
  type CreateReviewResult,
  type PublicReview,
  type ReviewSummary,
  type UpdateReviewInput,
} from '#shared/schemas/reviews';
import type { AppContext } from '#server/context';
import type { Db } from '#server/db/client';
import { reviews } from '#server/db/schema/reviews';
import { orderContacts, provenOrderId } from '#server/features/orders/public-api';
import { notFound } from '#server/http/http-errors';

type ReviewRow = typeof reviews.$inferSelect;

/** Newest published reviews returned by the public list (the summary covers all of them). */
export const PUBLIC_LIST_LIMIT = 200;
export const ADMIN_LIST_LIMIT = 1000;

const published = and(eq(reviews.verified, true), eq(reviews.hidden, false));

export function toPublicReview(r: ReviewRow): PublicReview {
  return {
    id: r.id,
    customerName: r.customerName,
    rating: r.rating,
    title: r.title,
    comment: r.comment,
    verified: r.verified,
    verification: r.verified ? (r.verifiedVia === 'staff' ? 'staff' : 'purchase') : null,
    createdAt: r.createdAt.toISOString(),
  };
}

function toAdminReview(r: ReviewRow, matchedOrderId: number | null): AdminReview {
  return {
    ...toPublicReview(r),
    email: r.email,
    orderNumber: r.orderNumber,
    hidden: r.hidden,
    published: r.verified && !r.hidden,
    verifiedAt: r.verifiedAt ? r.verifiedAt.toISOString() : null,
    verifiedBy: r.verifiedBy,
    matchedOrderId,
  };
}

/** Published reviews (verified and not hidden), newest first. */
export async function listPublishedReviews(ctx: AppContext): Promise<PublicReview[]> {
  const rows = await ctx.db.select().from(reviews).where(published).orderBy(desc(reviews.createdAt), desc(reviews.id)).limit(PUBLIC_LIST_LIMIT);
  return rows.map(toPublicReview);
}

/** Average rating (one decimal) and count over every published review. */
export async function summarizePublishedReviews(ctx: AppContext): Promise<ReviewSummary> {
  const [row] = await ctx.db
    .select({ count: sql<number>`count(*)::int`, avg: sql<string | null>`avg(${reviews.rating})` })
    .from(reviews)
    .where(published);
  const count = Number(row?.count ?? 0);
  const avg = row?.avg == null ? 0 : Number(row.avg);
  return { count, average: count ? Math.round(avg * 10) / 10 : 0 };
}


/**
 * Stores a review, unpublished unless the customer proves the order is theirs (its status link's
 * token, or being its signed-in owner), in which case it is verified (published) at once. One order
 * verifies one review automatically; further reviews for it wait for staff. Without proof the answer
 * is the same whether or not the number and e-mail match an order (nothing is told about orders).
 * A repeated identical submission (double click, retry) returns the stored review instead of a
 * second copy; a per-e-mail advisory lock makes that hold under concurrency.
 */
export async function createReview(
  ctx: AppContext,
  input: z.output<typeof ReviewCreateBody>,
  caller: { userId: string | null } = { userId: null },
): Promise<CreateReviewResult & { created: boolean }> {
  const givenId = parseOrderNumber(input.orderNumber);
  const emailKey = input.email.toLowerCase();

  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7305, hashtext(${emailKey}))`);

    const [dup] = await tx
      .select()
      .from(reviews)
      .where(
        and(
          sql`lower(${reviews.email}) = ${emailKey}`,
          eq(reviews.title, input.title),
          eq(reviews.comment, input.comment),
          eq(reviews.rating, input.rating),
          eq(reviews.customerName, input.customerName),
        ),
      )
      .orderBy(desc(reviews.id))
      .limit(1);
    if (dup) {
      const isPublished = dup.verified && !dup.hidden;
      return { review: toPublicReview(dup), published: isPublished, message: isPublished ? PUBLISHED_MESSAGE : PENDING_MESSAGE, created: false };
    }

    const proven = await provenOrderId(tx, givenId, input.orderToken ?? null, caller.userId);
    const orderId = proven ?? givenId;
    const orderNumber = orderId === null ? null : `#${orderId}`;
    let verify = false;
    if (proven !== null) {
      const [already] = await tx
        .select({ id: reviews.id })
        .from(reviews)
        .where(and(eq(reviews.orderNumber, `#${proven}`), eq(reviews.verified, true)))
        .limit(1);
      verify = !already;
    }

    const [row] = await tx
      .insert(reviews)
      .values({
        customerName: input.customerName,
        email: input.email,
        rating: input.rating,
        title: input.title,
        comment: input.comment,
        orderNumber,
        verified: verify,
        verifiedAt: verify ? new Date() : null,
        verifiedVia: verify ? 'purchase' : null,
      })
      .returning();
    return { review: toPublicReview(row!), published: verify, message: verify ? PUBLISHED_MESSAGE : PENDING_MESSAGE, created: true };
  });
}

/** Every review for staff, newest first, with the order it matches (if any). */
export async function listReviewsForAdmin(ctx: AppContext, filter: AdminReviewFilter): Promise<AdminReview[]> {
  const where =
    filter === 'pending'
      ? and(eq(reviews.verified, false), eq(reviews.hidden, false))
      : filter === 'published'
        ? published
        : filter === 'hidden'
          ? eq(reviews.hidden, true)
          : undefined;
  const rows = await ctx.db.select().from(reviews).where(where).orderBy(desc(reviews.createdAt), desc(reviews.id)).limit(ADMIN_LIST_LIMIT);
  return attachOrderMatches(ctx.db, rows);
}

async function attachOrderMatches(db: Db, rows: ReviewRow[]): Promise<AdminReview[]> {
  const ids = [...new Set(rows.map((r) => parseOrderNumber(r.orderNumber)).filter((n): n is number => n !== null))];
  const found = await orderContacts(db, ids);
  const byId = new Map(found.map((o) => [o.id, o]));
  return rows.map((r) => {
    const id = parseOrderNumber(r.orderNumber);
    const o = id === null ? undefined : byId.get(id);
    const match = o && o.email.toLowerCase() === r.email.toLowerCase() ? o.id : null;
    return toAdminReview(r, match);
  });
}

/** Staff verify/unverify and hide/unhide a review. */
export async function updateReview(ctx: AppContext, id: number, change: UpdateReviewInput, adminId: string): Promise<AdminReview> {
  const set: PgUpdateSetSource<typeof reviews> = {};
  if (change.hidden !== undefined) set.hidden = change.hidden;
  if (change.verified === true) {
    // re-verifying keeps the first verification's time and author
    set.verified = true;
    set.verifiedAt = sql`coalesce(${reviews.verifiedAt}, now())`;
    set.verifiedBy = sql`case when ${reviews.verified} then ${reviews.verifiedBy} else ${adminId}::uuid end`;
    set.verifiedVia = sql`case when ${reviews.verified} then ${reviews.verifiedVia} else 'staff' end`;
  } else if (change.verified === false) {
    set.verified = false;
    set.verifiedAt = null;
    set.verifiedBy = null;
    set.verifiedVia = null;
  }
  const rows = await ctx.db.update(reviews).set(set).where(eq(reviews.id, id)).returning();
  const row = rows[0];
  if (!row) throw notFound('Review not found');
  const [review] = await attachOrderMatches(ctx.db, [row]);
  return review!;
}
