import crypto from 'node:crypto';
import type { AppContext } from '#server/context';
import { sql } from 'drizzle-orm';
import { queryRow } from '#server/db/rows';
import type { PageEvent } from '#server/features/profile/public-api';

/**
 * Public-page events (visits, link clicks, contact saves) are buffered in memory and written in
 * batches, so a burst of scans costs one insert per second instead of one per view.
 * The buffer is flushed every second, as soon as it holds 500 events, before analytics are read,
 * and at shutdown (registered in ctx.onClose). A failed write keeps its batch (bounded) and retries
 * it first, under the same key: each batch records its key in `visit_batches` in the transaction
 * that writes its events, so a batch whose commit went unacknowledged is not written twice.
 */

/** what the public page hands over (profile declares it: engagement builds on profiles) */
type PublicEvent = PageEvent;

export interface VisitFlusher {
  record(event: PublicEvent): void;
  /** writes everything buffered so far */
  flush(): Promise<void>;
  /** stops the timer and flushes */
  stop(): Promise<void>;
  readonly pending: number;
}

const FLUSH_EVERY_MS = 1000;
const FLUSH_AT = 500;
/** events held at most (buffered and kept for a retry) while the database is away */
export const MAX_BUFFER = 50_000;
// Rows per INSERT. On the embedded database without a thread of its own a statement runs on the
// event loop's thread, so a big one stalls every request meanwhile (500 rows: 100-500 ms on a busy
// machine); small chunks with a turn of the event loop between them keep cached pages answering
// during a flush. Elsewhere (PostgreSQL, or PGlite on its own thread) a statement costs the event
// loop nothing and bigger ones cost the database less per row: measured on PGlite, 45 us a row in
// chunks of 100 and 38 in chunks of 500 (each statement parses, plans and fires its triggers once).
const CHUNK_ON_EVENT_LOOP = 100;
const CHUNK = 500;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

type VisitEvent = Extract<PublicEvent, { kind: 'visit' }>;

/** Visits grouped by everything but their time (a row of `visits` per time). */
export function visitGroups(visits: VisitEvent[]) {
  const groups = new Map<string, { profile_id: string; user_agent: string; device: string; source: string; card_code: string | null; ats: string[] }>();
  for (const e of visits) {
    const ua = e.userAgent.length > 500 ? e.userAgent.slice(0, 500) : e.userAgent;
    const code = e.cardCode ?? null;
    // NUL cannot occur in these values (PostgreSQL text refuses it): a safe separator
    const key = `${e.profileId}\0${e.device}\0${e.source}\0${code ?? ''}\0${ua}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { profile_id: e.profileId, user_agent: ua, device: e.device, source: e.source, card_code: code, ats: [] }));
    g.ats.push(e.at.toISOString());
  }
  return [...groups.values()];
}

/** A batch that failed to write, kept with its key so that its retry is recognised. */
interface Batch {
  key: string;
  events: PublicEvent[];
}

/** Batch keys are kept a day: a retry comes within seconds of its failure, or not at all. */
const PRUNE_EVERY_MS = 3_600_000;

export function createVisitFlusher(ctx: Pick<AppContext, 'db' | 'log'>, opts: { intervalMs?: number; chunk?: number } = {}): VisitFlusher {
  const chunk = opts.chunk ?? CHUNK;
  let buffer: PublicEvent[] = [];
  /** batches that failed, oldest first */
  const retries: Batch[] = [];
  let retrying = 0;
  let running: Promise<void> | null = null;
  let stopped = false;
  let dropped = 0;
  let prunedAt = 0;

  async function write({ key, events }: Batch) {
    const v = events.filter((e): e is Extract<PublicEvent, { kind: 'visit' }> => e.kind === 'visit');
    const c = events.filter((e): e is Extract<PublicEvent, { kind: 'click' }> => e.kind === 'click');
    const s = events.filter((e): e is Extract<PublicEvent, { kind: 'save' }> => e.kind === 'save');
    await ctx.db.transaction(async (tx) => {
      // the batch's key first: found, the batch committed before (its acknowledgement was lost)
      if (!(await queryRow(tx, sql`insert into visit_batches (key) values (${key}) on conflict do nothing returning key`))) return;
      // One statement per chunk with the rows as one JSON parameter: the statement text and its
      // plan stay the same whatever the chunk holds, so building and parsing it costs almost
      // nothing on the event loop's thread (a 50-row VALUES list cost more to build than to insert).
      // Views that differ only in their time (the same page, browser and origin: a burst of scans)
      // travel as one group with its times: most of a row is its user agent, so the JSON to build,
      // send and parse shrinks with the repeats. Rows go in in time order, as they came.
      for (let i = 0; i < v.length; i += chunk) {
        await tx.execute(sql`insert into visits (profile_id, created_at, user_agent, device, source, card_code)
          select g.profile_id, t.at, g.user_agent, g.device, g.source, g.card_code
          from json_to_recordset(${JSON.stringify(visitGroups(v.slice(i, i + chunk)))}::json)
            as g(profile_id text, user_agent text, device text, source text, card_code text, ats timestamptz[])
          cross join lateral unnest(g.ats) as t(at)
          order by t.at`);
        await yieldToEventLoop();
      }
      for (let i = 0; i < c.length; i += chunk) {
        const rows = c.slice(i, i + chunk).map((e) => ({ profile_id: e.profileId, link_id: e.linkId, link_type: e.linkType, created_at: e.at.toISOString() }));
        await tx.execute(sql`insert into link_clicks (profile_id, link_id, link_type, created_at)
          select profile_id, link_id, link_type, created_at
          from json_to_recordset(${JSON.stringify(rows)}::json) as r(profile_id text, link_id int, link_type text, created_at timestamptz)`);
        await yieldToEventLoop();
      }
      for (let i = 0; i < s.length; i += chunk) {
        const rows = s.slice(i, i + chunk).map((e) => ({ profile_id: e.profileId, created_at: e.at.toISOString() }));
        await tx.execute(sql`insert into contact_saves (profile_id, created_at)
          select profile_id, created_at from json_to_recordset(${JSON.stringify(rows)}::json) as r(profile_id text, created_at timestamptz)`);
        await yieldToEventLoop();
      }
    });
  }

  /** Writes a batch; one that fails is kept for the next flush (at the front when `retried`). */
  async function writeOrKeep(batch: Batch, retried: boolean) {
    try {
      await write(batch);
    } catch (err: unknown) {
      // a profile deleted meanwhile makes the whole batch fail its foreign key (the rollups'):
      // write it event by event, each under a key of its own derived from the batch's
      const code = (err as { code?: string; cause?: { code?: string } })?.code ?? (err as { cause?: { code?: string } })?.cause?.code;
      if (code === '23503') {
        for (const [i, e] of batch.events.entries()) await write({ key: `${batch.key}:${i}`, events: [e] }).catch(() => undefined);
        return;
      }
      ctx.log.warn({ err, events: batch.events.length }, 'visit flush failed; will retry');
      if (retried) retries.unshift(batch);
      else retries.push(batch);
      retrying += batch.events.length;
      // bounded: the oldest events go first (a batch cut short keeps its key: its events are
      // either all written already, or the rest of them are written under it)
      const droppedBefore = dropped;
      let excess = retrying + buffer.length - MAX_BUFFER;
      while (excess > 0 && retries.length) {
        const oldest = retries[0];
        const cut = Math.min(excess, oldest.events.length);
        if (cut === oldest.events.length) retries.shift();
        else oldest.events = oldest.events.slice(cut);
        retrying -= cut;
        dropped += cut;
        excess -= cut;
      }
      if (dropped > droppedBefore) ctx.log.error({ dropped }, 'visit buffer full; oldest events dropped');
      throw err;
    }
  }

  async function prune() {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    await ctx.db.execute(sql`delete from visit_batches where created_at < now() - interval '1 day'`).catch((err) => ctx.log.warn({ err }, 'visit batch keys not pruned'));
  }

  async function flushOnce() {
    // batches that failed before, oldest first, under their own keys; then what came in since
    while (retries.length) {
      const batch = retries.shift()!;
      retrying -= batch.events.length;
      await writeOrKeep(batch, true);
    }
    if (buffer.length) {
      const events = buffer;
      buffer = [];
      await writeOrKeep({ key: crypto.randomUUID(), events }, false);
    }
    await prune();
  }

  function flush(): Promise<void> {
    // one flush at a time; a caller arriving during a flush waits for it and then flushes again
    const next = (running ?? Promise.resolve()).catch(() => undefined).then(flushOnce);
    const tracked = next.finally(() => {
      if (running === tracked) running = null;
    });
    running = tracked;
    return tracked;
  }

  const timer = setInterval(() => {
    if (buffer.length || retries.length) flush().catch(() => undefined);
  }, opts.intervalMs ?? FLUSH_EVERY_MS);
  timer.unref();

  return {
    record(event) {
      if (stopped) return;
      // the database has been away long enough to fill the buffer: the newest view is not kept
      if (buffer.length + retrying >= MAX_BUFFER) {
        dropped++;
        return;
      }
      buffer.push(event);
      if (buffer.length >= FLUSH_AT && !running) flush().catch(() => undefined);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush().catch(() => undefined);
      // one more try for anything kept by a failed write
      if (retries.length) await flush().catch((err) => ctx.log.error({ err, lost: retrying }, 'visit events lost at shutdown'));
      stopped = true;
    },
    get pending() {
      return buffer.length + retrying;
    },
  };
}

const flushers = new WeakMap<AppContext, VisitFlusher>();

/** The app's one flusher, created on first use (with `opts`) and flushed at shutdown. */
export function visitFlusher(ctx: AppContext, opts: { intervalMs?: number } = {}): VisitFlusher {
  let f = flushers.get(ctx);
  if (!f) {
    const created = createVisitFlusher(ctx, { ...opts, chunk: ctx.database.onEventLoop ? CHUNK_ON_EVENT_LOOP : CHUNK });
    f = created;
    flushers.set(ctx, created);
    ctx.onClose.push(() => created.stop());
  }
  return f;
}

/** Counts a public-page event (routes.ts hands this to profile's public page). */
export function recordPageEvent(ctx: AppContext, event: PageEvent): void {
  visitFlusher(ctx).record(event);
}
