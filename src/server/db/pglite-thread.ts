import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { copyChanged, copyLoose } from './data-dir-copy';
import { errorToWire, PGLITE_THREAD_NAME, type PgliteReady, type PgliteReply, type PgliteRequest, type PgliteThreadInit, type QueryOptionsWire } from './pglite-thread-protocol';

/**
 * The embedded database's own thread (decision 18-05). PGlite is PostgreSQL compiled to
 * WebAssembly: every statement runs synchronously on the thread that owns it. Here that is this
 * worker thread, so a slow statement (a visit flush, a report, a migration) never holds the event
 * loop that answers requests. The event-loop side is src/server/db/pglite-thread-client.ts.
 * Bundled to dist/server/pglite-thread.js; from source it is loaded through
 * scripts/pglite-thread-dev.mjs.
 */

// named first thing, so the worker pool (src/server/worker.ts) never lowers this thread's priority
try {
  fs.writeFileSync('/proc/thread-self/comm', PGLITE_THREAD_NAME);
} catch {
  // not Linux: nothing to name
}

const port = parentPort!;
const init = workerData as PgliteThreadInit;
const identity = (v: unknown) => v;

function queryOptions(o: QueryOptionsWire | undefined) {
  if (!o) return undefined;
  const parsers: Record<number, (v: string) => unknown> = {};
  for (const t of o.textTypes ?? []) parsers[t] = identity;
  return { rowMode: o.rowMode, parsers };
}

async function main() {
  let pg: PGlite;
  try {
    pg = await PGlite.create({
      ...(init.dataDir ? { dataDir: init.dataDir } : {}),
      ...(init.loadDataDir ? { loadDataDir: new Blob([init.loadDataDir]) } : {}),
      startParams: init.startParams,
    });
  } catch (e) {
    port.postMessage({ ready: false, error: errorToWire(e) } satisfies PgliteReady);
    return;
  }

  /** open transactions: the PGlite transaction object, and how to end it */
  const open = new Map<number, { tx: Transaction; end: (commit: boolean, replyId: number) => void }>();
  let nextTx = 1;
  const ROLLBACK = Symbol('rollback');

  const reply = (id: number, value: unknown) => port.postMessage({ id, ok: true, value } satisfies PgliteReply);
  const fail = (id: number, e: unknown) => port.postMessage({ id, ok: false, error: errorToWire(e) } satisfies PgliteReply);
  const target = (tx: number | undefined) => {
    if (tx === undefined) return pg;
    const t = open.get(tx);
    if (!t) throw new Error('The transaction has ended');
    return t.tx;
  };

  const begin = (id: number) => {
    const txId = nextTx++;
    let endWith: { commit: boolean; replyId: number } | undefined;
    let ended!: () => void;
    const endSignal = new Promise<void>((r) => (ended = r));
    let begun = false;
    pg.transaction(async (tx) => {
      begun = true;
      open.set(txId, {
        tx,
        end: (commit, replyId) => {
          endWith = { commit, replyId };
          ended();
        },
      });
      reply(id, txId);
      await endSignal;
      // leaving by a throw makes PGlite roll back; leaving normally, it commits
      if (!endWith!.commit) throw ROLLBACK;
    }).then(
      () => {
        open.delete(txId);
        reply(endWith!.replyId, null);
      },
      (e) => {
        open.delete(txId);
        if (!begun) fail(id, e);
        else if (e === ROLLBACK) reply(endWith!.replyId, null);
        else fail(endWith?.replyId ?? id, e);
      },
    );
  };

  const handle = async (m: PgliteRequest) => {
    try {
      switch (m.op) {
        case 'query':
          return reply(m.id, await target(m.tx).query(m.text, m.params ?? [], queryOptions(m.options)));
        case 'exec':
          return reply(m.id, await target(m.tx).exec(m.text));
        case 'begin':
          return begin(m.id);
        case 'end': {
          const t = open.get(m.tx);
          if (!t) throw new Error('The transaction has ended');
          return t.end(m.commit, m.id);
        }
        case 'dump': {
          const blob = await pg.dumpDataDir(m.compression ?? 'gzip');
          const bytes = await blob.arrayBuffer();
          return port.postMessage({ id: m.id, ok: true, value: bytes } satisfies PgliteReply, [bytes]);
        }
        case 'copyDataDir': {
          // a database in memory has no files to copy: the caller falls back to dump
          if (!init.dataDir) return reply(m.id, false);
          // copied twice while statements run, then, under PGlite's own statement lock, only what
          // may have changed since (decision 38-06): no statement writes meanwhile, so the copy is
          // what a crash at this instant would leave (WAL replays it on open);
          // answers how long statements were held (ms)
          const state = await copyLoose(init.dataDir, m.to);
          await copyLoose(init.dataDir, m.to, state);
          const held = await pg._runExclusiveQuery(async () => {
            const t0 = performance.now();
            copyChanged(init.dataDir!, m.to, state);
            return performance.now() - t0;
          });
          return reply(m.id, held);
        }
        case 'close':
          await pg.close();
          reply(m.id, null);
          port.close();
          return;
      }
    } catch (e) {
      fail(m.id, e);
    }
  };
  port.on('message', (m: PgliteRequest) => void handle(m));
  port.postMessage({ ready: true } satisfies PgliteReady);
}

void main();
