import { and, eq, isNull, sql } from 'drizzle-orm';
import { cardType } from '#shared/catalogue';
import { orderStatusPath } from '#shared/routes';
import { CLAIM_MESSAGES, type OrderClaim } from '#shared/schemas/orders';
import { ProfileSaveBody } from '#shared/schemas/profile';
import { toE164 } from '#shared/profile/phone';
import type { AppContext, SessionUser } from '#server/context';
import { users } from '#server/db/schema/auth';
import { orders } from '#server/db/schema/orders';
import { badRequest, conflict } from '#server/http/http-errors';
import { sha256Hex, shortId } from '#server/infra/crypto';
import { toSessionUser } from '#server/plugins/session';
import { findUserByEmail, markEmailProven, registerUser } from '#server/features/auth/public-api';
import { createProfile, findProfileRowByUser } from '#server/features/profile/public-api';
import { attachOrderCodes } from '#server/features/engagement/public-api';

type OrderRow = typeof orders.$inferSelect;

const invalid = () => badRequest(CLAIM_MESSAGES.invalid, { token: CLAIM_MESSAGES.invalid });
const norm = (e: string) => e.trim().toLowerCase();

async function findClaimable(ctx: AppContext, token: string): Promise<OrderRow | null> {
  const [o] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.claimTokenHash, sha256Hex(token)), isNull(orders.claimedAt), isNull(orders.userId), isNull(orders.anonymizedAt)))
    .limit(1);
  return o ?? null;
}

/** What the claim page shows: the order, and whether its e-mail already has an account. */
export async function getClaim(ctx: AppContext, token: string): Promise<OrderClaim> {
  const o = await findClaimable(ctx, token);
  if (!o) throw invalid();
  return {
    orderId: o.id,
    customerName: o.customerName,
    email: o.email,
    companyName: o.companyName,
    quantity: o.quantity,
    cardTypeLabel: cardType(o.cardType)?.label ?? o.cardType,
    accountExists: !!(await findUserByEmail(ctx, o.email)),
  };
}

/** A free username from the e-mail's local part (`ana.lopez`, else `ana.lopez-4821`). */
async function freeUsername(ctx: AppContext, email: string): Promise<string> {
  const base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 30) || 'member';
  for (let i = 0; i < 8; i++) {
    const candidate = i === 0 ? base : `${base}-${shortId(5, '0123456789')}`;
    const [taken] = await ctx.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${candidate.toLowerCase()}`).limit(1);
    if (!taken) return candidate;
  }
  return `${base}-${shortId(10, '0123456789')}`;
}

/** The profile built from the order's details (fields the profile rules refuse are left empty). */
function profileFromOrder(o: OrderRow): ProfileSaveBody {
  const full = ProfileSaveBody.safeParse({
    fullName: o.customerName,
    jobTitle: o.position || null,
    companyName: o.companyName || null,
    email: o.email,
    // stored in E.164 (decision 37-09): a number that cannot be read so is left out, the other fields kept
    phoneNumber: o.phone ? toE164(o.phone) : null,
    address: o.address || null,
  });
  if (full.success) return full.data;
  const name = o.customerName.trim().length >= 2 ? o.customerName.trim() : o.email.split('@')[0].padEnd(2, '.');
  return ProfileSaveBody.parse({ fullName: name.slice(0, 100), email: o.email });
}

export interface ClaimResult {
  order: OrderRow;
  user: SessionUser;
  profileId: string;
  accountCreated: boolean;
  statusPath: string;
}

/**
 * Spends a claim link (once): the order joins the account (the signed-in one, or one created here
 * with the order's name and e-mail and the chosen password), the account gets a profile built from
 * the order when it has none, and the order's card code opens it from now on. The link came to the
 * order's mailbox, so an account with that same address is marked verified.
 */
export async function claimOrder(
  ctx: AppContext,
  input: { token: string; password?: string; confirmPassword?: string },
  signedIn: SessionUser | null,
  origin: string,
): Promise<ClaimResult> {
  const pending = await findClaimable(ctx, input.token);
  if (!pending) throw invalid();

  let user = signedIn;
  let accountCreated = false;
  if (!user) {
    if (await findUserByEmail(ctx, pending.email)) throw conflict(CLAIM_MESSAGES.accountExists, { email: CLAIM_MESSAGES.accountExists });
    if (!input.password) throw badRequest(CLAIM_MESSAGES.passwordRequired, { password: CLAIM_MESSAGES.passwordRequired });
    const [firstName, ...rest] = pending.customerName.trim().split(/\s+/);
    user = await registerUser(
      ctx,
      {
        username: await freeUsername(ctx, pending.email),
        email: pending.email,
        password: input.password,
        firstName: (firstName ?? '').slice(0, 80),
        lastName: rest.join(' ').slice(0, 80),
      },
      origin,
      { emailProven: true },
    );
    accountCreated = true;
  }
  const userId = user.id;

  const order = await ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(orders)
      .set({ userId, claimedAt: new Date(), claimTokenHash: null, updatedAt: new Date() })
      .where(and(eq(orders.id, pending.id), eq(orders.claimTokenHash, sha256Hex(input.token)), isNull(orders.claimedAt), isNull(orders.userId)))
      .returning();
    if (!claimed) return null;
    // the claim link proves the order's mailbox: the account with that same address is verified
    if (norm(user.email) === norm(claimed.email) && !user.emailVerified) {
      await markEmailProven(tx, userId, { touch: true });
    }
    return claimed;
  });
  if (!order) throw invalid();

  let profile = await findProfileRowByUser(ctx.db, userId);
  if (!profile) {
    try {
      await createProfile(ctx, userId, profileFromOrder(order));
    } catch {
      // a profile made at the same moment by another request is just as good
    }
    profile = await findProfileRowByUser(ctx.db, userId);
  }
  await attachOrderCodes(ctx, userId);
  const [fresh] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  return { order, user: toSessionUser(fresh), profileId: profile!.id, accountCreated, statusPath: orderStatusPath(order.statusToken) };
}

/**
 * Orders placed signed out with the account's own, verified address join the account (at login,
 * when the address is verified, and when the customer opens My orders). Their claim links die.
 */
export async function attachOrdersByVerifiedEmail(ctx: AppContext, userId: string): Promise<number> {
  const [u] = await ctx.db.select({ email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
  if (!u?.verifiedAt) return 0;
  const attached = await ctx.db
    .update(orders)
    .set({ userId, claimedAt: new Date(), claimTokenHash: null, updatedAt: new Date() })
    .where(and(isNull(orders.userId), isNull(orders.anonymizedAt), sql`lower(${orders.email}) = ${norm(u.email)}`))
    .returning({ id: orders.id });
  if (attached.length) await attachOrderCodes(ctx, userId);
  return attached.length;
}
