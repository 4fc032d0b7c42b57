import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { profileLinks, profiles } from '#server/db/schema/profile';
import { memberTeamOf } from '#server/features/team/reads';
import { templateCount, templateExists } from '#server/features/templates/reads';
import { LOCKED_FIELD_MESSAGE, WEBSITE_LOCK_LINK_MESSAGE, brandOf, linkAllowedUnderWebsiteLock, teamValueOf, type LockableField } from '#shared/team/brand';
import { badRequest, conflict, notFound } from '#server/http/http-errors';
import { shortId } from '#server/infra/crypto';
import { recordEvent } from '#server/features/webhooks/public-api';
import { keyFromFileUrl } from '#server/infra/files';
import { keysOwnedByUser } from '#server/infra/file-ownership';
import { TEMPLATE_IDS } from '#shared/catalogue';
import { storedTelUrl } from '#shared/profile/phone';
import { getMaxProfileLinks } from '#server/features/settings/public-api';
import {
  DEFAULT_PROFILE_LAYOUT,
  MESSAGES,
  tooManyLinksMessage,
  type ProfileDesignSaveBody,
  type LinkType,
  type Profile,
  type ProfileSaveBody,
} from '#shared/schemas/profile';
import { invalidatePublicProfile } from './public-profile.cache';
import { toProfile, type LinkRow, type ProfileRow } from './profile-row';
import { refuseSyncedChanges } from './synced-fields';

type DesignerInput = z.output<typeof ProfileDesignSaveBody>;

async function linksOf(db: Db | Tx, profileId: string): Promise<LinkRow[]> {
  return db.select().from(profileLinks).where(eq(profileLinks.profileId, profileId)).orderBy(asc(profileLinks.position), asc(profileLinks.id));
}

export async function findProfileRowByUser(db: Db | Tx, userId: string): Promise<ProfileRow | null> {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row ?? null;
}

/** The user's profile with its links, or null when they have none yet. */
export async function getProfileForUser(ctx: AppContext, userId: string): Promise<Profile | null> {
  const row = await findProfileRowByUser(ctx.db, userId);
  if (!row) return null;
  return toProfile(row, await linksOf(ctx.db, row.id));
}

type ImageField = 'customPhotoUrl' | 'logoUrl' | 'bannerLogoUrl';
const IMAGE_FIELDS: ImageField[] = ['customPhotoUrl', 'logoUrl', 'bannerLogoUrl'];

/** Image URLs must be files this user uploaded (an unchanged value is fine). */
async function checkImageUrls(db: Db | Tx, userId: string, input: Partial<Record<ImageField, string | null | undefined>>, current: ProfileRow | null) {
  const errors: Record<string, string> = {};
  const wanted: Array<[ImageField, string]> = [];
  for (const f of IMAGE_FIELDS) {
    const v = input[f];
    if (!v || (current && current[f] === v)) continue;
    const key = keyFromFileUrl(v);
    if (!key) errors[f] = MESSAGES.imageUrl;
    else wanted.push([f, key]);
  }
  if (wanted.length) {
    const owned = await keysOwnedByUser(db, userId, wanted.map(([, k]) => k));
    for (const [f, key] of wanted) if (!owned.has(key)) errors[f] = MESSAGES.imageUrl;
  }
  if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0], errors);
}

async function checkTemplateId(db: Db | Tx, templateId: number | undefined) {
  if (templateId === undefined) return;
  if (await templateExists(db, templateId)) return;
  const n = await templateCount(db);
  const builtIn = (Object.values(TEMPLATE_IDS) as number[]).includes(templateId);
  if (n === 0 && builtIn) return;
  throw badRequest('Please choose a template', { templateId: 'Please choose a template' });
}

interface LinkOps {
  links: Array<{ id?: number; linkType: LinkType; url: string; label?: string | null }>;
  deleteLinks: number[];
}

/**
 * Applies link edits: links with an id update that link, links without one are added, ids in
 * deleteLinks are removed. Refuses (400, nothing written: the caller's transaction rolls back)
 * ids that are not this profile's and a result of more links than the shop allows (settings'
 * maxProfileLinks, the spec's 3 by default; read in the transaction).
 */
async function applyLinkOps(tx: Tx, profileId: string, ops: LinkOps) {
  const existing = await linksOf(tx, profileId);
  const existingIds = new Set(existing.map((l) => l.id));
  const del = new Set(ops.deleteLinks);
  for (const id of del) {
    if (!existingIds.has(id)) throw badRequest('Link not found', { deleteLinks: 'Link not found' });
  }
  ops.links.forEach((l, i) => {
    if (l.id !== undefined && (!existingIds.has(l.id) || del.has(l.id))) {
      throw badRequest('Link not found', { [`links.${i}.id`]: 'Link not found' });
    }
  });
  const added = ops.links.filter((l) => l.id === undefined).length;
  const max = await getMaxProfileLinks(tx);
  if (existing.length - del.size + added > max) {
    const message = tooManyLinksMessage(max);
    throw badRequest(message, { links: message });
  }
  if (del.size) await tx.delete(profileLinks).where(and(eq(profileLinks.profileId, profileId), inArray(profileLinks.id, [...del])));
  let position = 0;
  const mentioned = new Set<number>();
  for (const l of ops.links) {
    if (l.id !== undefined) {
      mentioned.add(l.id);
      await tx
        .update(profileLinks)
        .set({ linkType: l.linkType, url: l.url, label: l.label ?? null, position })
        .where(and(eq(profileLinks.id, l.id), eq(profileLinks.profileId, profileId)));
    } else {
      await tx.insert(profileLinks).values({ profileId, linkType: l.linkType, url: l.url, label: l.label ?? null, position });
    }
    position++;
  }
  // links neither sent nor deleted keep their order after the ones sent
  for (const l of existing) {
    if (del.has(l.id) || mentioned.has(l.id)) continue;
    await tx.update(profileLinks).set({ position }).where(eq(profileLinks.id, l.id));
    position++;
  }
}

function isUniqueViolation(e: unknown, constraint?: string): boolean {
  const err = e as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = err?.code ?? err?.cause?.code;
  const name = err?.constraint ?? err?.cause?.constraint ?? '';
  return code === '23505' && (!constraint || name.includes(constraint));
}

async function insertProfileRow(tx: Tx, values: Omit<typeof profiles.$inferInsert, 'id'>): Promise<ProfileRow> {
  // ids are random (32^10); a collision is astronomically rare but handled
  for (let attempt = 0; attempt < 5; attempt++) {
    const id = shortId(10);
    const rows = await tx.insert(profiles).values({ ...values, id }).onConflictDoNothing({ target: profiles.id }).returning();
    if (rows[0]) return rows[0];
  }
  throw new Error('could not allocate a profile id');
}

/** The columns a whole-profile create or update writes, from the form's body. */
function profileFields(body: ProfileSaveBody) {
  return {
    fullName: body.fullName,
    jobTitle: body.jobTitle,
    email: body.email,
    phoneNumber: body.phoneNumber,
    address: body.address,
    companyName: body.companyName,
    profileTemplate: body.profileTemplate,
    customPhotoUrl: body.customPhotoUrl,
    logoUrl: body.logoUrl,
    bannerLogoUrl: body.bannerLogoUrl,
  } satisfies Partial<typeof profiles.$inferInsert>;
}

type SentLink = { linkType: string; url: string };
type LockCheck = Partial<Record<Exclude<LockableField, 'website'>, string | number | null | undefined>> & {
  bannerLogoUrl?: string | null;
  website?: (string | null | undefined)[];
  /** every link the save sends (field path -> link), checked under a website lock */
  links?: [string, SentLink][];
};

/**
 * A team member cannot change a field their team locked (issue 21): sending the stored value or
 * the team's value is fine (the form shows the team's), anything else answers 400 "This field is
 * managed by your team" on that field. Answers the locked fields, which a save leaves as they are.
 * Issue 33: a logo lock covers the banner logo too (the header shows the locked logo), and a website
 * lock covers every link type: a new link must point to the team's website or, for a social type,
 * to its own network ({@link linkAllowedUnderWebsiteLock}); links already saved may be sent again.
 */
async function lockedFieldsFor(db: Db, userId: string, current: ProfileRow | null, sent: LockCheck, currentLinks: SentLink[]): Promise<Set<LockableField>> {
  const team = await memberTeamOf(db, userId);
  if (!team) return new Set();
  const source = { ...team, brand: brandOf(team.brand) };
  const locked = new Set(source.brand.lockedFields);
  const same = (a: unknown, b: unknown) => (a ?? '') === (b ?? '') || String(a ?? '').trim().toLowerCase() === String(b ?? '').trim().toLowerCase();
  const currentWebsites = currentLinks.filter((l) => l.linkType === 'website').map((l) => l.url);
  // a link as it reads now: a phone link saved before E.164 (decision 37-09) is sent back in E.164
  const readNow = (l: SentLink) => (l.linkType === 'phone' ? storedTelUrl(l.url) : l.url);
  const errors: Record<string, string> = {};
  for (const field of locked) {
    if (field === 'website') {
      const teamSite = source.website;
      for (const url of sent.website ?? []) {
        if (url && !currentWebsites.some((w) => same(w, url)) && !same(url, teamSite)) errors.website = LOCKED_FIELD_MESSAGE;
      }
      for (const [path, link] of sent.links ?? []) {
        if (link.linkType === 'website' || errors[path]) continue; // website links: checked above
        if (currentLinks.some((l) => same(l.url, link.url) || same(readNow(l), link.url))) continue;
        if (!linkAllowedUnderWebsiteLock(link, teamSite)) errors[path] = WEBSITE_LOCK_LINK_MESSAGE;
      }
      continue;
    }
    if (field === 'logoUrl' && sent.bannerLogoUrl !== undefined) {
      // the banner logo follows the locked logo: only the stored one, none, or the team's logo
      const banner = sent.bannerLogoUrl;
      if (banner && !same(banner, current?.bannerLogoUrl) && !same(banner, source.brand.logoUrl)) errors.bannerLogoUrl = LOCKED_FIELD_MESSAGE;
    }
    const value = sent[field];
    if (value === undefined) continue;
    const own = current ? (current as Record<string, unknown>)[field] : null;
    if (!same(value, own) && !same(value, teamValueOf(source, field))) errors[field] = LOCKED_FIELD_MESSAGE;
  }
  if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0], errors);
  return locked;
}

function withoutLocked<T extends Record<string, unknown>>(fields: T, locked: Set<LockableField>): T {
  const out = { ...fields };
  for (const f of locked) delete (out as Record<string, unknown>)[f];
  return out;
}

/** The links a save sends, with the field path a refusal names. */
const sentLinks = (links: SentLink[] | undefined, extra: [string, SentLink | null][] = []): [string, SentLink][] => [
  ...(links ?? []).map((l, i): [string, SentLink] => [`links.${i}.url`, l]),
  ...extra.filter((e): e is [string, SentLink] => !!e[1]),
];

const sentWebsites = (links: { linkType: string; url: string }[] | undefined) => (links ?? []).filter((l) => l.linkType === 'website').map((l) => l.url);

/** POST /api/profile: creates the user's one profile (409 when it exists). */
export async function createProfile(ctx: AppContext, userId: string, body: ProfileSaveBody): Promise<Profile> {
  if (body.deleteLinks.length) throw badRequest('Link not found', { deleteLinks: 'Link not found' });
  await checkImageUrls(ctx.db, userId, body, null);
  await lockedFieldsFor(ctx.db, userId, null, { ...body, website: sentWebsites(body.links), links: sentLinks(body.links) }, []);
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const row = await insertProfileRow(tx, { userId, ...profileFields(body) });
      await applyLinkOps(tx, row.id, { links: body.links.map((l) => ({ ...l, id: undefined })), deleteLinks: [] });
      return row.id;
    });
    invalidatePublicProfile(ctx, id);
    return (await getProfileForUser(ctx, userId))!;
  } catch (e) {
    if (isUniqueViolation(e, 'user')) throw conflict('You already have a profile. Update it instead.');
    throw e;
  }
}

/** PUT /api/profile/{id}: only the owner; anyone else gets 404 and nothing changes. */
export async function updateProfile(ctx: AppContext, userId: string, profileId: string, body: ProfileSaveBody, synced: readonly string[] = []): Promise<Profile> {
  const current = await findProfileRowByUser(ctx.db, userId);
  if (!current || current.id !== profileId) throw notFound('Profile not found');
  const directory = refuseSyncedChanges(current, body, synced);
  await checkImageUrls(ctx.db, userId, body, current);
  const ownLinks = await linksOf(ctx.db, profileId);
  const locked = await lockedFieldsFor(ctx.db, userId, current, { ...body, website: sentWebsites(body.links), links: sentLinks(body.links) }, ownLinks);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(profiles)
      .set({ ...withoutLocked(profileFields(body), new Set<string>([...locked, ...directory]) as Set<LockableField>), updatedAt: new Date() })
      .where(and(eq(profiles.id, profileId), eq(profiles.userId, userId)));
    await applyLinkOps(tx, profileId, body);
    await recordEvent(tx, { type: 'profile.updated', userId, data: { profile: { id: profileId, updatedAt: new Date().toISOString() } } });
  });
  invalidatePublicProfile(ctx, profileId);
  return (await getProfileForUser(ctx, userId))!;
}

/**
 * PUT /api/profile: the design flow's save. Every field is optional; given fields are written.
 * Creates the profile when the user has none (then fullName is required).
 * `website` / `linkedinUrl` set (or, when empty, remove) the first link of that type.
 */
export async function saveDesignerProfile(ctx: AppContext, userId: string, body: DesignerInput, synced: readonly string[] = []): Promise<Profile> {
  const current = await findProfileRowByUser(ctx.db, userId);
  if (!current && !body.fullName) throw badRequest(MESSAGES.fullName, { fullName: MESSAGES.fullName });
  const directory: Set<string> = refuseSyncedChanges(current, body, synced);
  await checkImageUrls(ctx.db, userId, body, current);
  await checkTemplateId(ctx.db, body.templateId);
  const ownLinks = current ? await linksOf(ctx.db, current.id) : [];
  const locked = await lockedFieldsFor(
    ctx.db,
    userId,
    current,
    {
      ...body,
      website: [...sentWebsites(body.links), body.website],
      links: sentLinks(body.links, [['linkedinUrl', body.linkedinUrl ? { linkType: 'linkedin', url: body.linkedinUrl } : null]]),
    },
    ownLinks,
  );

  const fields: Partial<typeof profiles.$inferInsert> = {};
  const keys = ['fullName', 'jobTitle', 'email', 'phoneNumber', 'address', 'companyName', 'profileTemplate', 'customPhotoUrl', 'logoUrl', 'bannerLogoUrl', 'templateId', 'cardType'] as const;
  // optional text fields turn "absent" into null through the schema; only write what was sent
  for (const k of keys) {
    if ((body as Record<string, unknown>)[k] === undefined || locked.has(k as LockableField) || directory.has(k)) continue;
    (fields as Record<string, unknown>)[k] = (body as Record<string, unknown>)[k];
  }

  const id = await ctx.db
    .transaction(async (tx) => {
      let profileId: string;
      if (current) {
        profileId = current.id;
        await tx.update(profiles).set({ ...fields, updatedAt: new Date() }).where(eq(profiles.id, profileId));
      } else {
        const row = await insertProfileRow(tx, {
          ...fields,
          userId,
          fullName: body.fullName!,
          profileTemplate: body.profileTemplate ?? DEFAULT_PROFILE_LAYOUT,
        });
        profileId = row.id;
      }
      const ops: LinkOps = { links: [...(body.links ?? [])], deleteLinks: [...(body.deleteLinks ?? [])] };
      if (body.website !== undefined || body.linkedinUrl !== undefined) {
        const existing = await linksOf(tx, profileId);
        // keep every existing link unless changed below
        const kept = existing.filter((l) => !ops.deleteLinks.includes(l.id) && !ops.links.some((x) => x.id === l.id));
        for (const [type, value] of [
          ['website', body.website],
          ['linkedin', body.linkedinUrl],
        ] as const) {
          if (value === undefined || (type === 'website' && locked.has('website'))) continue;
          const link = kept.find((l) => l.linkType === type) ?? null;
          const sent = ops.links.find((x) => x.linkType === type);
          if (sent) continue; // an explicit link of that type wins
          if (value) {
            if (link) ops.links.push({ id: link.id, linkType: type, url: value, label: link.label });
            else ops.links.push({ linkType: type, url: value });
          } else if (link) {
            ops.deleteLinks.push(link.id);
          }
        }
      }
      if (ops.links.length || ops.deleteLinks.length) await applyLinkOps(tx, profileId, ops);
      await recordEvent(tx, { type: 'profile.updated', userId, data: { profile: { id: profileId, updatedAt: new Date().toISOString() } } });
      return profileId;
    })
    .catch((e) => {
      if (isUniqueViolation(e, 'user')) throw conflict('Your profile was created meanwhile. Please try again.');
      throw e;
    });
  invalidatePublicProfile(ctx, id);
  return (await getProfileForUser(ctx, userId))!;
}
