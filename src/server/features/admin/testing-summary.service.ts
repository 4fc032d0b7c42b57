import crypto from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import { PAGE_ROUTES, publicProfilePath } from '#shared/routes';
import type { LinkCheckResult, SystemCheck, TestingSummary } from '#shared/schemas/admin';
import type { AppContext } from '#server/context';
import { linkChecks } from '#server/db/schema/admin';
import { profiles } from '#server/db/schema/profile';
import { templates } from '#server/db/schema/templates';
import { crawlSite, type PageFetcher } from './link-checker';
import { queryRow } from '#server/db/rows';

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T; ms: number } | { ok: false; error: string; ms: number }> {
  const t0 = performance.now();
  try {
    const value = await fn();
    return { ok: true, value, ms: Math.round(performance.now() - t0) };
  } catch (e: any) {
    return { ok: false, error: String(e?.message ?? e).slice(0, 300), ms: Math.round(performance.now() - t0) };
  }
}

export async function outboxCounts(ctx: AppContext): Promise<{ pending: number; sent: number; failed: number; oldestPendingMinutes: number | null }> {
  const row = await queryRow<{ pending: number; sent: number; failed: number; oldest: number | string | null }>(
    ctx.db,
    sql`
    select count(*) filter (where status = 'pending')::int as pending,
           count(*) filter (where status = 'sent')::int as sent,
           count(*) filter (where status = 'failed')::int as failed,
           extract(epoch from now() - min(created_at) filter (where status = 'pending')) / 60 as oldest
    from outbox`,
  );
  if (!row) return { pending: 0, sent: 0, failed: 0, oldestPendingMinutes: null };
  return { pending: Number(row.pending), sent: Number(row.sent), failed: Number(row.failed), oldestPendingMinutes: row.oldest === null ? null : Number(row.oldest) };
}

export function toLinkCheckResult(row: typeof linkChecks.$inferSelect): LinkCheckResult {
  const details = (row.details ?? {}) as { entries?: Array<{ url: string; status: number; from?: string }> };
  const broken = (details.entries ?? []).filter((e) => !(e.status >= 200 && e.status < 400)).slice(0, 50);
  return {
    id: row.id,
    checkedAt: row.checkedAt.toISOString(),
    totalPages: row.totalPages,
    okPages: row.okPages,
    successRate: row.totalPages ? Math.round((row.okPages / row.totalPages) * 1000) / 10 : 0,
    broken,
  };
}

/** Real checks of what the site depends on; `systemHealth` sums them up. */
export async function getTestingSummary(ctx: AppContext): Promise<TestingSummary> {
  const checks: SystemCheck[] = [];

  const db = await timed(() => withTimeout(ctx.database.ping(), 3000, 'The database'));
  checks.push({
    id: 'database',
    label: 'Database',
    status: db.ok ? 'pass' : 'fail',
    detail: db.ok ? `Reachable (${ctx.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})` : `Unreachable: ${db.error}`,
    ms: db.ms,
  });

  if (!ctx.mail.configured) {
    checks.push({ id: 'email', label: 'E-mail transport', status: 'off', detail: 'SMTP is not configured: e-mails are kept in the outbox below and can be read there.' });
  } else {
    const mail = await timed(() => withTimeout(ctx.mail.verify(), 8000, 'The SMTP server'));
    checks.push({
      id: 'email',
      label: 'E-mail transport',
      status: mail.ok ? 'pass' : 'fail',
      detail: mail.ok ? 'The SMTP server accepted our connection and login' : `SMTP check failed: ${mail.error}`,
      ms: mail.ms,
    });
  }

  const storage = await timed(async () => {
    await ctx.storage.check();
    // a real round trip: write, read back, delete a small probe file
    const key = `health/probe-${crypto.randomBytes(6).toString('hex')}.txt`;
    const payload = Buffer.from(`probe ${Date.now()}`);
    await ctx.storage.put(key, payload, 'text/plain');
    try {
      const back = await ctx.storage.get(key);
      if (!back || !back.data.equals(payload)) throw new Error('a written file did not read back');
    } finally {
      await ctx.storage.delete(key).catch(() => {});
    }
  });
  checks.push({
    id: 'storage',
    label: 'File storage',
    status: storage.ok ? 'pass' : 'fail',
    detail: storage.ok ? `Writable and readable (${ctx.storage.kind})` : `Storage check failed: ${storage.error}`,
    ms: storage.ms,
  });

  const storeConfigured = !!(ctx.config.SHOPIFY_STORE_DOMAIN && ctx.config.SHOPIFY_STOREFRONT_TOKEN);
  checks.push({
    id: 'store',
    label: 'Online store',
    status: storeConfigured ? 'pass' : 'off',
    detail: storeConfigured
      ? `Configured for ${ctx.config.SHOPIFY_STORE_DOMAIN}`
      : "Not configured: orders use the product's own order status page.",
  });

  const ob = await outboxCounts(ctx);
  const stuck = ctx.mail.configured && ob.oldestPendingMinutes !== null && ob.oldestPendingMinutes > 15;
  checks.push({
    id: 'outbox',
    label: 'E-mail outbox',
    status: ob.failed > 0 ? 'fail' : stuck ? 'warn' : 'pass',
    detail:
      `${ob.pending} waiting, ${ob.sent} sent, ${ob.failed} failed` +
      (ob.failed > 0 ? ' (failed e-mails gave up after their retries)' : stuck ? ' (the oldest has waited over 15 minutes)' : ''),
  });

  const [last] = await ctx.db.select().from(linkChecks).orderBy(desc(linkChecks.checkedAt), desc(linkChecks.id)).limit(1);
  const linkCheck = last ? toLinkCheckResult(last) : null;
  checks.push(
    linkCheck
      ? {
          id: 'links',
          label: "Site's own pages",
          status: linkCheck.okPages === linkCheck.totalPages ? 'pass' : 'warn',
          detail: `${linkCheck.okPages} of ${linkCheck.totalPages} addresses answered (${linkCheck.successRate}%)`,
        }
      : { id: 'links', label: "Site's own pages", status: 'unknown', detail: 'No link check has run yet.' },
  );

  const systemHealth = checks.some((c) => c.status === 'fail')
    ? 'Failing'
    : checks.some((c) => c.status === 'warn')
      ? 'Degraded'
      : checks.every((c) => c.status === 'pass' || c.status === 'off' || c.id === 'links')
        ? 'Healthy'
        : 'Unknown';

  return {
    systemHealth,
    lastUpdated: linkCheck?.checkedAt ?? 'Unknown',
    checkedAt: new Date().toISOString(),
    checks,
    linkCheck,
    outbox: { pending: ob.pending, sent: ob.sent, failed: ob.failed },
  };
}

/** Where the link check starts: every page of the route table, a few public profiles and the template files. */
export async function linkCheckStartPaths(ctx: AppContext): Promise<string[]> {
  const pages = PAGE_ROUTES.filter((p) => !p.includes(':'));
  const recentProfiles = await ctx.db.select({ id: profiles.id }).from(profiles).orderBy(desc(profiles.updatedAt)).limit(3);
  const folders = await ctx.db.select({ folder: templates.folder }).from(templates).where(eq(templates.isActive, true));
  return [
    ...pages,
    ...recentProfiles.map((p) => publicProfilePath(p.id)),
    ...folders.flatMap((t) => [`/templates/svg/${t.folder}/front.svg`, `/templates/svg/${t.folder}/back.svg`]),
  ];
}

/** Runs the crawl and stores it as the newest row of `link_checks`. */
export async function runLinkCheck(ctx: AppContext, fetchPage: PageFetcher, origin: string): Promise<LinkCheckResult> {
  const result = await crawlSite(fetchPage, { start: await linkCheckStartPaths(ctx), origin });
  const [row] = await ctx.db
    .insert(linkChecks)
    .values({ totalPages: result.totalPages, okPages: result.okPages, details: { entries: result.entries, truncated: result.truncated } })
    .returning();
  return toLinkCheckResult(row);
}
