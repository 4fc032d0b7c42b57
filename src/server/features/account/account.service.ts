import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { emailChanges, files, passwordResets, profiles, sessions, users } from '../../db/schema/index';
import { cards, orders, rateLimits } from '../../db/schema/index';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { keyFromFileUrl } from '../../lib/files';
import { enforceRateLimit } from '../../lib/rate-limit';
import { enqueueEmail } from '../../lib/mail/outbox';
import { renderEmail } from '../../lib/mail/layout';
import { endOtherSessions, findUserByEmail, hashPassword, verifyPassword } from '../auth/auth.service';
import { ACCOUNT_MESSAGES, EMAIL_CHANGE_TTL_HOURS, RESET_TOKEN_TTL_MINUTES, type AccountSession } from '#shared/schemas/account';
import { deviceLabel } from './device-label';
import { invalidatePublicProfile } from '../public-profile/public-profile.cache';

/** Attempts at the current password (change password, change e-mail, delete) per account. */
export const VERIFY_LIMIT = { limit: 10, windowSeconds: 15 * 60 };
/** Reset e-mails per address; over it the answer stays the same but nothing is sent. */
export const FORGOT_PER_EMAIL = { limit: 3, windowSeconds: 3600 };
/** Public form rate (per IP) from the guide. */
export const PUBLIC_FORM_LIMIT = { limit: 5, windowSeconds: 60 };
/** Token-spending calls (reset, confirm e-mail) per IP. */
export const TOKEN_LIMIT = { limit: 10, windowSeconds: 15 * 60 };
/** E-mail change requests per account. */
export const EMAIL_CHANGE_LIMIT = { limit: 5, windowSeconds: 3600 };
/** Forgot-password answers take at least this long, so timing does not tell whether an account exists. */
export const FORGOT_MIN_MS = 250;

const ANONYMIZED_NAME = 'Deleted customer';

function normEmail(email: string) {
  return email.trim().toLowerCase();
}

async function checkCurrentPassword(ctx: AppContext, userId: string, password: string, field: string) {
  await enforceRateLimit(
    ctx.rateLimiter,
    `account:verify:${userId}`,
    VERIFY_LIMIT.limit,
    VERIFY_LIMIT.windowSeconds,
    'Too many password attempts. Please wait a few minutes and try again.',
  );
  const [u] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw notFound('Account not found');
  if (!(await verifyPassword(u.passwordHash, password))) {
    throw badRequest(ACCOUNT_MESSAGES.wrongPassword, { [field]: ACCOUNT_MESSAGES.wrongPassword });
  }
  return u;
}

function passwordChangedEmail(to: string, origin: string, how: 'reset' | 'change') {
  return renderEmail({
    preheader: 'Your password was changed',
    heading: 'Your password was changed',
    paragraphs: [
      how === 'reset'
        ? `The password of your Metal Cards NYC account (${to}) was just reset with a link sent to this address.`
        : `The password of your Metal Cards NYC account (${to}) was just changed from your account settings.`,
      'Every other device signed in to your account has been signed out.',
      'If this was not you, reset your password right away and contact us.',
    ],
    button: { label: 'Reset password', url: `${origin}/forgot-password` },
  });
}

// ---------------------------------------------------------------------------------------------
// Forgot / reset password

/**
 * Sends a reset link when the address belongs to an account. Always resolves the same way
 * (the caller answers the same message for every address) and sends at most
 * FORGOT_PER_EMAIL reset e-mails per address per hour.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, origin: string): Promise<void> {
  const key = `forgot:email:${sha256Hex(normEmail(email))}`;
  const r = await ctx.rateLimiter.hit(key, FORGOT_PER_EMAIL.limit, FORGOT_PER_EMAIL.windowSeconds);
  if (!r.allowed) return;
  const user = await findUserByEmail(ctx, email);
  if (!user) return;
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(passwordResets).values({ userId: user.id, tokenHash: sha256Hex(token), expiresAt }).returning({ id: passwordResets.id });
    const { text, html } = renderEmail({
      preheader: 'Reset the password of your Metal Cards NYC account',
      heading: 'Reset your password',
      paragraphs: [
        `We received a request to reset the password of the Metal Cards NYC account for ${user.email}.`,
        'Open the link below to choose a new password. It works once, for 1 hour.',
        'If you did not ask for this, ignore this e-mail: your password stays the same.',
      ],
      button: { label: 'Choose a new password', url: `${origin}/reset-password?token=${token}` },
    });
    await enqueueEmail(tx, {
      dedupeKey: `password-reset:${row.id}`,
      kind: 'password-reset',
      to: user.email,
      subject: 'Reset your Metal Cards NYC password',
      text,
      html,
    });
  });
  ctx.outbox.kick();
}

/** Spends a reset token (once), sets the new password and ends every session of the account. */
export async function resetPassword(ctx: AppContext, token: string, password: string, origin: string) {
  const tokenHash = sha256Hex(token);
  const invalid = () => badRequest(ACCOUNT_MESSAGES.resetInvalid, { token: ACCOUNT_MESSAGES.resetInvalid });
  // cheap check first, so a junk token never costs an argon2 hash
  const [pending] = await ctx.db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
    .limit(1);
  if (!pending) throw invalid();
  const passwordHash = await hashPassword(password);

  const user = await ctx.db.transaction(async (tx) => {
    // the guarded update is what makes the token single-use, even for two requests at once
    const [spent] = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.id, pending.id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
      .returning({ userId: passwordResets.userId });
    if (!spent) return null;
    const [u] = await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, spent.userId)).returning();
    if (!u) return null;
    // every other reset link of the account dies with this one
    await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userId, u.id), isNull(passwordResets.usedAt)));
    await tx.delete(sessions).where(eq(sessions.userId, u.id));
    const { text, html } = passwordChangedEmail(u.email, origin, 'reset');
    await enqueueEmail(tx, { dedupeKey: `password-changed:reset:${pending.id}`, kind: 'password-changed', to: u.email, subject: 'Your Metal Cards NYC password was changed', text, html });
    return u;
  });
  if (!user) throw invalid();
  // whoever holds the mailbox may sign in again at once
  await ctx.rateLimiter.reset(`login:fail:${normEmail(user.email)}`);
  ctx.outbox.kick();
  return user;
}

// ---------------------------------------------------------------------------------------------
// Signed-in settings

export async function changePassword(ctx: AppContext, userId: string, sessionId: string | null, currentPassword: string, newPassword: string, origin: string) {
  const u = await checkCurrentPassword(ctx, userId, currentPassword, 'currentPassword');
  const passwordHash = await hashPassword(newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, u.id));
    await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userId, u.id), isNull(passwordResets.usedAt)));
    const { text, html } = passwordChangedEmail(u.email, origin, 'change');
    await enqueueEmail(tx, { dedupeKey: `password-changed:${u.id}:${randomToken(8)}`, kind: 'password-changed', to: u.email, subject: 'Your Metal Cards NYC password was changed', text, html });
  });
  await endOtherSessions(ctx, u.id, sessionId);
  ctx.outbox.kick();
}

/** Stores a pending change and mails a confirmation link to the new address; nothing changes until it is opened. */
export async function requestEmailChange(ctx: AppContext, userId: string, newEmail: string, currentPassword: string, origin: string) {
  const u = await checkCurrentPassword(ctx, userId, currentPassword, 'currentPassword');
  const email = newEmail.trim();
  if (normEmail(email) === normEmail(u.email)) throw badRequest(ACCOUNT_MESSAGES.emailSame, { newEmail: ACCOUNT_MESSAGES.emailSame });
  const other = await findUserByEmail(ctx, email);
  if (other && other.id !== u.id) throw conflict(ACCOUNT_MESSAGES.emailTaken, { newEmail: ACCOUNT_MESSAGES.emailTaken });
  await enforceRateLimit(ctx.rateLimiter, `account:email-change:${u.id}`, EMAIL_CHANGE_LIMIT.limit, EMAIL_CHANGE_LIMIT.windowSeconds, 'Too many email change requests. Please try again later.');

  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + EMAIL_CHANGE_TTL_HOURS * 3600_000);
  await ctx.db.transaction(async (tx) => {
    // only the latest request can be confirmed
    await tx.update(emailChanges).set({ usedAt: sql`now()` }).where(and(eq(emailChanges.userId, u.id), isNull(emailChanges.usedAt)));
    const [row] = await tx.insert(emailChanges).values({ userId: u.id, newEmail: email, tokenHash: sha256Hex(token), expiresAt }).returning({ id: emailChanges.id });
    const confirm = renderEmail({
      preheader: 'Confirm your new email address',
      heading: 'Confirm your new email address',
      paragraphs: [
        `Someone signed in to the Metal Cards NYC account of ${u.email} asked to use ${email} from now on.`,
        `Open the link below to confirm. It works once, for ${EMAIL_CHANGE_TTL_HOURS} hours. Until then the account keeps its current address.`,
        'If you did not ask for this, ignore this e-mail.',
      ],
      button: { label: 'Confirm new email', url: `${origin}/confirm-email?token=${token}` },
    });
    await enqueueEmail(tx, { dedupeKey: `email-change:${row.id}`, kind: 'email-change', to: email, subject: 'Confirm your new Metal Cards NYC email address', text: confirm.text, html: confirm.html });
    const notice = renderEmail({
      preheader: 'A change of your email address was requested',
      heading: 'Email change requested',
      paragraphs: [
        `A change of your Metal Cards NYC account's email address to ${email} was requested from your account settings.`,
        'It takes effect only once the new address is confirmed. If this was not you, change your password right away.',
      ],
      button: { label: 'Reset password', url: `${origin}/forgot-password` },
    });
    await enqueueEmail(tx, { dedupeKey: `email-change-notice:${row.id}`, kind: 'email-change-notice', to: u.email, subject: 'Your Metal Cards NYC email address is about to change', text: notice.text, html: notice.html });
  });
  ctx.outbox.kick();
  return { pendingEmail: email };
}

/** Spends an e-mail change token (once) and switches the account to the new address. */
export async function confirmEmailChange(ctx: AppContext, token: string) {
  const invalid = () => badRequest(ACCOUNT_MESSAGES.emailLinkInvalid, { token: ACCOUNT_MESSAGES.emailLinkInvalid });
  try {
    const result = await ctx.db.transaction(async (tx) => {
      const [spent] = await tx
        .update(emailChanges)
        .set({ usedAt: sql`now()` })
        .where(and(eq(emailChanges.tokenHash, sha256Hex(token)), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, sql`now()`)))
        .returning();
      if (!spent) return null;
      const taken = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${normEmail(spent.newEmail)}`, ne(users.id, spent.userId)))
        .limit(1);
      if (taken.length) throw conflict(ACCOUNT_MESSAGES.emailTaken, { token: ACCOUNT_MESSAGES.emailTaken });
      const [u] = await tx.update(users).set({ email: spent.newEmail, updatedAt: new Date() }).where(eq(users.id, spent.userId)).returning();
      return u ?? null;
    });
    if (!result) throw invalid();
    return result;
  } catch (e: any) {
    // two accounts racing for the same address: the unique index decides
    if (e?.code === '23505' || /unique/i.test(String(e?.message)) || e?.cause?.code === '23505') {
      throw conflict(ACCOUNT_MESSAGES.emailTaken, { token: ACCOUNT_MESSAGES.emailTaken });
    }
    throw e;
  }
}

/** The account's pending e-mail change (if any), for the settings page. */
export async function pendingEmailChange(ctx: AppContext, userId: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ newEmail: emailChanges.newEmail })
    .from(emailChanges)
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, sql`now()`)))
    .orderBy(sql`${emailChanges.createdAt} desc`)
    .limit(1);
  return row?.newEmail ?? null;
}

/** Opaque per-session id for the client: derived from the stored hash, never the hash itself. */
export function publicSessionId(storedId: string) {
  return sha256Hex(`session-public:${storedId}`).slice(0, 20);
}

/** Live sessions (not expired, not idle) of the account, the current one first. */
export async function listSessions(ctx: AppContext, userId: string, currentSessionId: string | null): Promise<AccountSession[]> {
  const idleSecs = ctx.config.SESSION_IDLE_DAYS * 86400;
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${idleSecs})`),
      ),
    )
    .orderBy(sql`${sessions.lastSeenAt} desc`);
  return rows
    .map((s) => ({
      id: publicSessionId(s.id),
      current: s.id === currentSessionId,
      device: deviceLabel(s.userAgent),
      ip: s.ip,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

export async function revokeOtherSessions(ctx: AppContext, userId: string, currentSessionId: string | null): Promise<number> {
  const others = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(currentSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)) : eq(sessions.userId, userId));
  await endOtherSessions(ctx, userId, currentSessionId);
  return others.length;
}

// ---------------------------------------------------------------------------------------------
// Deleting the account

/**
 * Deletes the account after checking its password: profile (and with it links, visits, clicks,
 * contact saves, leads, card codes), cards, stored files, sessions and tokens are removed; orders
 * stay for the business's records with the customer's personal fields blanked and `anonymized_at`
 * set. The e-mail address is free to register again afterwards.
 */
export async function deleteAccount(ctx: AppContext, userId: string, password: string, origin: string) {
  const u = await checkCurrentPassword(ctx, userId, password, 'password');

  const removed = await ctx.db.transaction(async (tx) => {
    const [profile] = await tx.select().from(profiles).where(eq(profiles.userId, u.id)).limit(1);
    const cardRows = await tx
      .select({ front: cards.frontImageUrl, back: cards.backImageUrl })
      .from(cards)
      .where(profile ? or(eq(cards.userId, u.id), eq(cards.profileId, profile.id)) : eq(cards.userId, u.id));
    const orderRows = await tx.select({ artworkUrl: orders.artworkUrl }).from(orders).where(eq(orders.userId, u.id));
    // files the account's records point at but that were stored without an owner (e.g. artwork
    // uploaded before signing in): theirs too. Files owned by another account are never touched.
    const referenced = [
      profile?.customPhotoUrl,
      profile?.logoUrl,
      profile?.bannerLogoUrl,
      ...cardRows.flatMap((c) => [c.front, c.back]),
      ...orderRows.map((o) => o.artworkUrl),
    ]
      .map((url) => keyFromFileUrl(url))
      .filter((k): k is string => !!k);
    const fileRows = await tx
      .select({ key: files.key })
      .from(files)
      .where(
        referenced.length
          ? or(eq(files.userId, u.id), and(isNull(files.userId), inArray(files.key, referenced)))
          : eq(files.userId, u.id),
      );

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
      .where(eq(orders.userId, u.id));

    await tx.delete(cards).where(profile ? or(eq(cards.userId, u.id), eq(cards.profileId, profile.id)) : eq(cards.userId, u.id));
    if (fileRows.length) await tx.delete(files).where(inArray(files.key, fileRows.map((f) => f.key)));
    if (profile) await tx.delete(profiles).where(eq(profiles.id, profile.id));
    await tx.delete(rateLimits).where(eq(rateLimits.key, `login:fail:${normEmail(u.email)}`));

    const { text, html } = renderEmail({
      preheader: 'Your account has been deleted',
      heading: 'Your account has been deleted',
      paragraphs: [
        `The Metal Cards NYC account of ${u.email} was deleted at your request, together with its profile, images, cards and statistics.`,
        'Past orders are kept for our business records without your name or contact details.',
        'You are welcome back any time: the address can be used to sign up again.',
      ],
      button: { label: 'Visit Metal Cards NYC', url: `${origin}/` },
    });
    await enqueueEmail(tx, { dedupeKey: `account-deleted:${u.id}`, kind: 'account-deleted', to: u.email, subject: 'Your Metal Cards NYC account has been deleted', text, html });

    // sessions, reset links and e-mail changes go with the user row (on delete cascade)
    await tx.delete(users).where(eq(users.id, u.id));
    return { keys: fileRows.map((f) => f.key), profileId: profile?.id ?? null };
  });
  const { keys, profileId } = removed;
  // the public page (cached in this process) answers 404 from now on
  if (profileId) invalidatePublicProfile(ctx, profileId);

  // the bytes are removed once the rows are gone; a failure leaves an orphan file, never a broken row
  for (const key of keys) {
    try {
      await ctx.storage.delete(key);
    } catch (err: any) {
      ctx.log.warn({ key, err: err?.message }, 'could not delete a stored file of a deleted account');
    }
  }
  ctx.outbox.kick();
  return { deletedFiles: keys.length };
}
