import crypto from 'node:crypto';
import type { AppContext } from '#server/context';
import { contactSaves, linkClicks, visits } from '#server/db/schema/index';

/**
 * Public-page events (visits, link clicks, contact saves) are buffered in memory and written in
 * batches, so a burst of scans costs one insert per second instead of one per view.
 * The buffer is flushed every second, as soon as it holds 500 events, before analytics are read,
 * and at shutdown (registered in ctx.onClose). A failed write puts the events back (bounded).
 */

export type PublicEvent =
  | { kind: 'visit'; profileId: string; at: Date; userAgent: string; device: string; source: string; cardCode?: string | null }
  | { kind: 'click'; profileId: string; at: Date; linkId: number; linkType: string }
  | { kind: 'save'; profileId: string; at: Date };

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
const MAX_BUFFER = 50_000;
// Rows per INSERT. On the embedded database a statement runs on the event loop's thread, so a
// big one stalls every request meanwhile (500 rows: 100-500 ms on a busy machine); small chunks
// with a turn of the event loop between them keep cached pages answering during a flush.
const CHUNK = 50;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

type Buffered = PublicEvent & { key: string };

export function createVisitFlusher(ctx: Pick<AppContext, 'db' | 'log'>, opts: { intervalMs?: number } = {}): VisitFlusher {
  let buffer: Buffered[] = [];
  let running: Promise<void> | null = null;
  let stopped = false;
  let dropped = 0;

  async function write(batch: Buffered[]) {
    const v = batch.filter((e): e is Extract<Buffered, { kind: 'visit' }> => e.kind === 'visit');
    const c = batch.filter((e): e is Extract<Buffered, { kind: 'click' }> => e.kind === 'click');
    const s = batch.filter((e): e is Extract<Buffered, { kind: 'save' }> => e.kind === 'save');
    await ctx.db.transaction(async (tx) => {
      for (let i = 0; i < v.length; i += CHUNK) {
        await tx
          .insert(visits)
          .values(
            v.slice(i, i + CHUNK).map((e) => ({
              profileId: e.profileId,
              createdAt: e.at,
              userAgent: e.userAgent.slice(0, 500),
              device: e.device,
              source: e.source,
              cardCode: e.cardCode ?? null,
              batchKey: e.key,
            })),
          )
          .onConflictDoNothing({ target: visits.batchKey });
        await yieldToEventLoop();
      }
      for (let i = 0; i < c.length; i += CHUNK) {
        await tx.insert(linkClicks).values(c.slice(i, i + CHUNK).map((e) => ({ profileId: e.profileId, linkId: e.linkId, linkType: e.linkType, createdAt: e.at })));
        await yieldToEventLoop();
      }
      for (let i = 0; i < s.length; i += CHUNK) {
        await tx.insert(contactSaves).values(s.slice(i, i + CHUNK).map((e) => ({ profileId: e.profileId, createdAt: e.at })));
        await yieldToEventLoop();
      }
    });
  }

  async function flushOnce() {
    if (!buffer.length) return;
    const batch = buffer;
    buffer = [];
    try {
      await write(batch);
    } catch (err: unknown) {
      // a profile deleted meanwhile makes the whole batch fail its foreign key: retry row by row
      const code = (err as { code?: string; cause?: { code?: string } })?.code ?? (err as { cause?: { code?: string } })?.cause?.code;
      if (code === '23503') {
        for (const e of batch) await write([e]).catch(() => undefined);
        return;
      }
      ctx.log.warn({ err, events: batch.length }, 'visit flush failed; will retry');
      buffer = batch.concat(buffer);
      if (buffer.length > MAX_BUFFER) {
        dropped += buffer.length - MAX_BUFFER;
        buffer = buffer.slice(buffer.length - MAX_BUFFER);
        ctx.log.error({ dropped }, 'visit buffer full; oldest events dropped');
      }
      throw err;
    }
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
    if (buffer.length) flush().catch(() => undefined);
  }, opts.intervalMs ?? FLUSH_EVERY_MS);
  timer.unref();

  return {
    record(event) {
      if (stopped) return;
      buffer.push({ ...event, key: crypto.randomUUID() });
      if (buffer.length >= FLUSH_AT && !running) flush().catch(() => undefined);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush().catch(() => undefined);
      // one more try for anything put back by a failed write
      if (buffer.length) await flush().catch((err) => ctx.log.error({ err, lost: buffer.length }, 'visit events lost at shutdown'));
      stopped = true;
    },
    get pending() {
      return buffer.length;
    },
  };
}

const flushers = new WeakMap<AppContext, VisitFlusher>();

/** The app's one flusher, created on first use (with `opts`) and flushed at shutdown. */
export function visitFlusher(ctx: AppContext, opts: { intervalMs?: number } = {}): VisitFlusher {
  let f = flushers.get(ctx);
  if (!f) {
    const created = createVisitFlusher(ctx, opts);
    f = created;
    flushers.set(ctx, created);
    ctx.onClose.push(() => created.stop());
  }
  return f;
}
