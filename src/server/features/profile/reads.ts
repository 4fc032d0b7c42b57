import { asc, eq, or } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { users } from '#server/db/schema/auth';
import { profileLinks, profiles } from '#server/db/schema/profile';

/**
 * Read verbs over profile's tables for other features (issue 34, decision 34-07; docs/architecture.md,
 * "Who owns which tables"). A leaf: it imports profile's own tables (and `users`, which every
 * feature reads) and nothing of another feature. The fragments (subqueries) let a reader keep its
 * one SQL query.
 */

const NO_USER = '00000000-0000-0000-0000-000000000000';

/** Which profile a card shows: its own profile, else its owner's. */
interface CardProfileRef {
  profileId: string | null;
  userId: string | null;
}

/** A profile's links in their order on the page. */
export async function profileLinksOf(db: Db | Tx, profileId: string) {
  return db.select().from(profileLinks).where(eq(profileLinks.profileId, profileId)).orderBy(asc(profileLinks.position), asc(profileLinks.id));
}

/** The profile a visitor's lead is for: its name, whether the form is on, its owner's account e-mail. */
export async function leadTargetOf(db: Db | Tx, profileId: string) {
  return (await db
    .select({ id: profiles.id, fullName: profiles.fullName, enabled: profiles.leadFormEnabled, ownerEmail: users.email })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId))
    .limit(1)).at(0);
}

/** The user's profile: its id, logo and chosen card template. */
export async function profileOfUser(db: Db | Tx, userId: string) {
  return (await db.select({ id: profiles.id, logoUrl: profiles.logoUrl, templateId: profiles.templateId }).from(profiles).where(eq(profiles.userId, userId)).limit(1)).at(0);
}

/** The profile a card shows (its own, else its owner's): the facts a card and its review print. */
export async function cardProfile(db: Db | Tx, ref: CardProfileRef) {
  return (await db
    .select({ id: profiles.id, logoUrl: profiles.logoUrl, fullName: profiles.fullName, email: profiles.email, jobTitle: profiles.jobTitle })
    .from(profiles)
    .where(ref.profileId ? eq(profiles.id, ref.profileId) : eq(profiles.userId, ref.userId ?? NO_USER))
    .limit(1)).at(0);
}

/** The id of a profile that is either this one or this user's (the first found); none when neither is given. */
export async function profileIdOfEither(db: Db | Tx, ref: CardProfileRef): Promise<string | undefined> {
  if (!ref.profileId && !ref.userId) return undefined;
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(or(ref.profileId ? eq(profiles.id, ref.profileId) : undefined, ref.userId ? eq(profiles.userId, ref.userId) : undefined))
    .limit(1);
  return row?.id;
}

/** Subquery to join on `card_profiles.id` or `card_profiles.userId`: each profile's name, e-mail and job title. */
export function cardProfilesQuery(db: Db | Tx) {
  return db.select({ id: profiles.id, userId: profiles.userId, fullName: profiles.fullName, email: profiles.email, jobTitle: profiles.jobTitle }).from(profiles).as('card_profiles');
}
