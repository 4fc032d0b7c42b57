import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { profileLinks, profiles } from '#server/db/schema/profile';
import { memberTeamQuery } from '#server/features/team/reads';
import { applyBrand, brandOf } from '#shared/team/brand';
import type { PublicProfile } from '#shared/schemas/profile';
import { toPublicProfile } from './profile-row';

/**
 * Public profiles read through a small in-process cache (the page behind every metal card is the
 * hot path). An edited profile is dropped at once on every instance (`invalidatePublicProfile`
 * publishes on the change feed, which reaches the other instances through PostgreSQL's
 * LISTEN/NOTIFY); entries also expire after TTL_MS, the bound if a signal is ever lost.
 * Rendered page variants are cached on the entry and dropped with it.
 */
export interface CachedPublicProfile {
  profile: PublicProfile;
  userId: string;
  updatedAt: Date;
  /** the owner shows the contact exchange form (issue 10) */
  leadFormEnabled: boolean;
  /** rendered outputs by variant (html, gzip, vcard...) */
  rendered: Map<string, unknown>;
  /** the owner's team: its brand is applied (a brand change drops the team's entries, issue 21) */
  teamId: string | null;
}

interface Entry {
  value: CachedPublicProfile | null;
  expires: number;
}

const TTL_MS = 30_000;
const MISS_TTL_MS = 5_000;
const MAX_ENTRIES = 5_000;

const caches = new WeakMap<object, Map<string, Entry>>();
/** bumped by every invalidation, so a read that raced an edit is not cached */
let generation = 0;

function cacheOf(ctx: AppContext): Map<string, Entry> {
  let c = caches.get(ctx);
  if (!c) {
    const cache = new Map<string, Entry>();
    caches.set(ctx, cache);
    // a change on any instance (null: changes may have been missed while disconnected)
    ctx.changes.subscribe('mc_public_profile', (id) => {
      generation++;
      if (id === null) cache.clear();
      else cache.delete(id);
    });
    // a team's brand changed: every member's page shows it at once, on every instance
    ctx.changes.subscribe('mc_team_brand', (teamId) => {
      generation++;
      if (teamId === null) cache.clear();
      else for (const [k, e] of cache) if (e.value?.teamId === teamId) cache.delete(k);
    });
    c = cache;
  }
  return c;
}

export function invalidatePublicProfile(ctx: AppContext, id: string): void {
  cacheOf(ctx);
  ctx.changes.publish('mc_public_profile', id);
}

/** Every public page of the team's members shows its brand again (after a brand change). */
export function invalidateTeamPages(ctx: AppContext, teamId: string): void {
  cacheOf(ctx);
  ctx.changes.publish('mc_team_brand', teamId);
}

/**
 * The cached entry when it is fresh, without a query (the fast lane, decision 38-05): undefined when
 * it is not cached or has expired (the caller then goes through loadPublicProfile).
 */
export function peekPublicProfile(ctx: AppContext, id: string): CachedPublicProfile | null | undefined {
  const hit = cacheOf(ctx).get(id);
  return hit && hit.expires > Date.now() ? hit.value : undefined;
}

/**
 * Reads in progress: callers of the same cold profile share one read (and so one rendered page)
 * instead of each querying and rendering (a burst on a cold page did both once per request). A read
 * that began before an invalidation is not joined.
 */
const loading = new WeakMap<object, Map<string, { generation: number; load: Promise<CachedPublicProfile | null> }>>();

export function loadPublicProfile(ctx: AppContext, id: string): Promise<CachedPublicProfile | null> {
  const hit = cacheOf(ctx).get(id);
  if (hit && hit.expires > Date.now()) return Promise.resolve(hit.value);
  let pending = loading.get(ctx);
  if (!pending) loading.set(ctx, (pending = new Map()));
  const inFlight = pending.get(id);
  if (inFlight && inFlight.generation === generation) return inFlight.load;
  const mine = { generation, load: readPublicProfile(ctx, id) };
  pending.set(id, mine);
  const map = pending;
  void mine.load.finally(() => {
    if (map.get(id) === mine) map.delete(id);
  }).catch(() => undefined);
  return mine.load;
}

async function readPublicProfile(ctx: AppContext, id: string): Promise<CachedPublicProfile | null> {
  const cache = cacheOf(ctx);
  const now = Date.now();
  const startedAt = generation;

  const teams = memberTeamQuery(ctx.db);
  const [found] = await ctx.db
    .select({ row: profiles, team: { id: teams.id, name: teams.name, companyName: teams.companyName, address: teams.address, website: teams.website, brand: teams.brand } })
    .from(profiles)
    .leftJoin(teams, eq(teams.userId, profiles.userId))
    .where(eq(profiles.id, id))
    .limit(1);
  let value: CachedPublicProfile | null = null;
  if (found) {
    const { row, team } = found;
    const links = await ctx.db
      .select()
      .from(profileLinks)
      .where(eq(profileLinks.profileId, id))
      .orderBy(asc(profileLinks.position), asc(profileLinks.id));
    value = {
      teamId: team?.id ?? null,
      userId: row.userId,
      updatedAt: row.updatedAt,
      leadFormEnabled: row.leadFormEnabled,
      rendered: new Map(),
      profile: toPublicProfile(row, links),
    };
    if (team) value.profile = applyBrand(value.profile, { ...team, brand: brandOf(team.brand) });
  }
  if (startedAt !== generation) return value;
  if (cache.size >= MAX_ENTRIES) {
    // drop the oldest tenth (Map keeps insertion order)
    let n = Math.ceil(MAX_ENTRIES / 10);
    for (const k of cache.keys()) {
      cache.delete(k);
      if (--n <= 0) break;
    }
  }
  cache.delete(id);
  cache.set(id, { value, expires: now + (value ? TTL_MS : MISS_TTL_MS) });
  return value;
}
