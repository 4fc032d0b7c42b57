import crypto from 'node:crypto';
import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import { parse } from 'tldts';
import type { AppContext } from '#server/context';
import { ssoDomains } from '#server/db/schema/sso';
import { HttpError, badRequest, conflict, notFound } from '#server/http/http-errors';
import { SSO_TXT_PREFIX, SSO_TXT_VALUE_PREFIX, type SsoDomain } from '#shared/schemas/sso';
import { auditSsoChange, type SsoActor } from './sso-owner';
import { txtRecords } from './sso-dns';

/**
 * A team's company e-mail domains and their DNS proof (decision 39-03). The owner adds a domain,
 * publishes `cards-verification=<token>` as a TXT record at `_cards-verification.<domain>` (or at
 * the domain itself), and presses Verify. A verified domain belongs to one team (a unique index);
 * public suffixes and the big free-mail domains are never a company's.
 */

/** Mail domains anyone can have an address at: no company can claim their people. */
const FREE_MAIL = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com', 'ymail.com', 'rocketmail.com',
  'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'pm.me', 'gmx.com', 'gmx.net', 'gmx.de', 'web.de',
  'mail.com', 'yandex.ru', 'yandex.com', 'mail.ru', 'qq.com', '163.com', '126.com', 'zoho.com', 'fastmail.com', 'hey.com',
  'tutanota.com', 'tuta.io', 'hotmail.co.uk', 'yahoo.co.uk', 'outlook.de', 'comcast.net', 'verizon.net', 'att.net',
]);

const MAX_DOMAINS = 20;

/** Why a domain can never be proven (null: it can). */
export function domainRefusal(domain: string): string | null {
  const p = parse(domain, { allowPrivateDomains: true });
  if (p.isIp) return 'Enter a domain name, not an address';
  if (!p.domain || !p.publicSuffix || p.domain === p.publicSuffix || domain === p.publicSuffix) return `${domain} is a public suffix: enter your company's own domain`;
  const registrable = parse(domain).domain ?? p.domain;
  if (FREE_MAIL.has(registrable) || FREE_MAIL.has(domain)) return `${registrable} is a public e-mail service: enter your company's own domain`;
  return null;
}

export function domainView(row: typeof ssoDomains.$inferSelect): SsoDomain {
  return {
    id: row.id,
    domain: row.domain,
    txtName: `${SSO_TXT_PREFIX}.${row.domain}`,
    txtValue: `${SSO_TXT_VALUE_PREFIX}${row.token}`,
    verifiedAt: row.verifiedAt ? row.verifiedAt.toISOString() : null,
  };
}

export async function listDomains(ctx: AppContext, teamId: string): Promise<SsoDomain[]> {
  const rows = await ctx.db.select().from(ssoDomains).where(eq(ssoDomains.teamId, teamId)).orderBy(asc(ssoDomains.createdAt), asc(ssoDomains.domain));
  return rows.map(domainView);
}

export async function addDomain(ctx: AppContext, teamId: string, domain: string, who: SsoActor): Promise<SsoDomain> {
  const refusal = domainRefusal(domain);
  if (refusal) throw badRequest(refusal, { domain: refusal });
  const mine = await ctx.db.select({ id: ssoDomains.id, domain: ssoDomains.domain }).from(ssoDomains).where(eq(ssoDomains.teamId, teamId));
  if (mine.some((d) => d.domain === domain)) throw conflict('This domain is already on the list', { domain: 'This domain is already on the list' });
  if (mine.length >= MAX_DOMAINS) throw conflict(`A team can prove at most ${MAX_DOMAINS} domains`, { domain: `A team can prove at most ${MAX_DOMAINS} domains` });
  if (await verifiedElsewhere(ctx, teamId, domain)) throw conflict(TAKEN, { domain: TAKEN });
  const [row] = await ctx.db
    .insert(ssoDomains)
    .values({ teamId, domain, token: crypto.randomBytes(18).toString('base64url') })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict('This domain is already on the list', { domain: 'This domain is already on the list' });
  await auditSsoChange(ctx, teamId, who, 'sso-configured', { change: 'domain-added', domain });
  return domainView(row);
}

const TAKEN = 'Another team has already verified this domain';

async function verifiedElsewhere(ctx: AppContext, teamId: string, domain: string): Promise<boolean> {
  const [other] = await ctx.db
    .select({ id: ssoDomains.id })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt), ne(ssoDomains.teamId, teamId)))
    .limit(1);
  return Boolean(other);
}

async function domainOf(ctx: AppContext, teamId: string, id: string) {
  // the team's own rows only: another team's domain id answers 404, as an unknown one does
  const [row] = await ctx.db.select().from(ssoDomains).where(and(eq(ssoDomains.id, id), eq(ssoDomains.teamId, teamId))).limit(1);
  if (!row) throw notFound('Unknown domain');
  return row;
}

/** Looks the TXT record up (the `_cards-verification` name, then the domain itself) and marks the domain verified. */
export async function verifyDomain(ctx: AppContext, teamId: string, id: string, who: SsoActor): Promise<SsoDomain> {
  const row = await domainOf(ctx, teamId, id);
  if (row.verifiedAt) return domainView(row);
  if (await verifiedElsewhere(ctx, teamId, row.domain)) throw conflict(TAKEN, { domain: TAKEN });
  const expected = `${SSO_TXT_VALUE_PREFIX}${row.token}`;
  let found = false;
  try {
    for (const name of [`${SSO_TXT_PREFIX}.${row.domain}`, row.domain]) {
      if ((await txtRecords(name, ctx.config.SSO_DNS_RESOLVER)).some((t) => t.trim() === expected)) {
        found = true;
        break;
      }
    }
  } catch (e) {
    await auditSsoChange(ctx, teamId, who, 'sso-configured', { change: 'domain-verify-failed', domain: row.domain, reason: String((e as NodeJS.ErrnoException).code ?? 'dns error') }, 'failure');
    throw new HttpError(502, 'The DNS look-up failed. Please try again in a few minutes.');
  }
  if (!found) {
    await auditSsoChange(ctx, teamId, who, 'sso-configured', { change: 'domain-verify-failed', domain: row.domain, reason: 'record not found' }, 'failure');
    const msg = `No TXT record "${expected}" found at ${SSO_TXT_PREFIX}.${row.domain} yet. DNS changes can take a while to appear; try again later.`;
    throw badRequest(msg, { domain: msg });
  }
  let updated;
  try {
    [updated] = await ctx.db.update(ssoDomains).set({ verifiedAt: new Date() }).where(eq(ssoDomains.id, row.id)).returning();
  } catch (e) {
    // the unique index on verified domains: another team won the race
    if (/unique|23505/i.test(String((e as { code?: string; message?: string }).code ?? (e as Error).message)) || (e as { cause?: { code?: string } }).cause?.code === '23505') throw conflict(TAKEN, { domain: TAKEN });
    throw e;
  }
  await auditSsoChange(ctx, teamId, who, 'sso-configured', { change: 'domain-verified', domain: row.domain });
  return domainView(updated!);
}

export async function removeDomain(ctx: AppContext, teamId: string, id: string, who: SsoActor): Promise<void> {
  const row = await domainOf(ctx, teamId, id);
  await ctx.db.delete(ssoDomains).where(eq(ssoDomains.id, row.id));
  await auditSsoChange(ctx, teamId, who, 'sso-removed', { change: 'domain-removed', domain: row.domain });
}

/** The team that verified the domain of this address (null: none). */
export async function teamOfEmailDomain(ctx: AppContext, email: string): Promise<string | null> {
  const domain = emailDomain(email);
  if (!domain) return null;
  const [row] = await ctx.db
    .select({ teamId: ssoDomains.teamId })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)))
    .limit(1);
  return row?.teamId ?? null;
}

export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  const d = email.slice(at + 1).trim().toLowerCase().replace(/\.$/, '');
  return d || null;
}

/** Does the team hold this verified domain? */
export async function teamHasVerifiedDomain(ctx: AppContext, teamId: string, domain: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: ssoDomains.id })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.teamId, teamId), eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)))
    .limit(1);
  return Boolean(row);
}
