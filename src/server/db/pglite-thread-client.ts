import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import { errorFromWire, type PgliteReady, type PgliteReply, type PgliteRequest, type PgliteThreadInit, type QueryOptionsWire } from './pglite-thread-protocol';

/**
 * The event-loop side of the embedded database's own thread (decision 18-05): the part of PGlite's
 * interface that drizzle's PGlite driver and our code use (`query`, `exec`, `transaction`), each
 * call a message to src/server/db/pglite-thread.ts. Statements still run one at a time, as in one
 * PGlite: a statement outside a transaction waits for an open transaction to end.
 */

type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, (value: string, typeId: number) => unknown> };

interface PgliteTransactionLike {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Array<Results>>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

function threadEntry(): string {
  const here = import.meta.url;
  // from source: worker threads do not inherit the TypeScript loader
  if (here.endsWith('.ts')) return fileURLToPath(new URL('../../../scripts/pglite-thread-dev.mjs', here));
  // bundled: dist/server/server.js (or admin.js) sits beside dist/server/pglite-thread.js
  return fileURLToPath(new URL('./pglite-thread.js', here));
}

/**
 * drizzle passes parsers only to keep some types as the text PostgreSQL sent (timestamps, dates,
 * intervals and their arrays); functions cannot cross to the thread, so the type ids do, and the
 * thread applies the same pass-through. Any other parser would be silently lost: refuse it.
 */
function wireOptions(options: QueryOptions | undefined): QueryOptionsWire | undefined {
  if (!options) return undefined;
  const textTypes: number[] = [];
  for (const [type, parse] of Object.entries(options.parsers ?? {})) {
    if (parse('2000-01-01', Number(type)) !== '2000-01-01') throw new Error(`the database thread only passes types through as text (type ${type})`);
    textTypes.push(Number(type));
  }
  return { rowMode: options.rowMode, textTypes };
}

export class PgliteThreadClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;

  private constructor(worker: Worker) {
    this.worker = worker;
    worker.on('message', (m: PgliteReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(errorFromWire(m.error));
    });
    const end = (e: Error) => {
      this.failure ??= e;
      for (const p of this.pending.values()) p.reject(this.failure);
      this.pending.clear();
    };
    worker.on('error', (e) => end(new Error(`the database thread failed: ${e.message}`)));
    worker.on('exit', () => end(new Error('the database thread has ended')));
  }

  static async open(init: PgliteThreadInit): Promise<PgliteThreadClient> {
    const worker = new Worker(threadEntry(), {
      workerData: init,
      transferList: init.loadDataDir ? [init.loadDataDir] : [],
      name: 'database',
      // the thread's JavaScript only carries statements and their rows across: a small young
      // generation keeps its heap (and the process's RSS) small; collections there are cheap
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    // (only our own listeners come off afterwards: the worker's internal ones start its port)
    let onMessage!: (m: PgliteReady) => void;
    let onError!: (e: Error) => void;
    let onExit!: (code: number) => void;
    const ready = await new Promise<PgliteReady>((resolve, reject) => {
      onMessage = resolve;
      onError = reject;
      onExit = (code) => reject(new Error(`the database thread exited (${code}) before it was ready`));
      worker.once('message', onMessage).once('error', onError).once('exit', onExit);
    }).finally(() => worker.off('message', onMessage).off('error', onError).off('exit', onExit));
    if (!ready.ready) {
      await worker.terminate();
      throw errorFromWire(ready.error);
    }
    return new PgliteThreadClient(worker);
  }

  private call<T>(request: PgliteRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      try {
        this.worker.postMessage({ ...request, id });
      } catch (e) {
        // a parameter that cannot be cloned (a function, a class with private state)
        this.pending.delete(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return this.call({ op: 'query', text, params, options: wireOptions(options), tx });
  }

  exec(text: string, tx?: number): Promise<Array<Results>> {
    return this.call({ op: 'exec', text, tx });
  }

  /** Like PGlite's: commits when `fn` resolves, rolls back when it throws (or called rollback). */
  async transaction<T>(fn: (tx: PgliteTransactionLike) => Promise<T>): Promise<T> {
    const txId = await this.call<number>({ op: 'begin' });
    let closed = false;
    const check = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: PgliteTransactionLike = {
      query: async (text, params, options) => (check(), this.query(text, params, options, txId)),
      exec: async (text) => (check(), this.exec(text, txId)),
      rollback: async () => {
        check();
        closed = true;
        await this.call({ op: 'end', tx: txId, commit: false });
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (e) {
      if (!closed) {
        closed = true;
        await this.call({ op: 'end', tx: txId, commit: false }).catch(() => undefined);
      }
      throw e;
    }
    if (!closed) {
      closed = true;
      await this.call({ op: 'end', tx: txId, commit: true });
    }
    return result;
  }

  /** A dump of the data dir (tar, gzipped by default), as PGlite's dumpDataDir. */
  async dumpDataDir(compression: 'gzip' | 'none' = 'gzip'): Promise<Blob> {
    return new Blob([await this.call<ArrayBuffer>({ op: 'dump', compression })]);
  }

  /**
   * Copies the data dir's files to `to` between statements; answers how long statements were held
   * (ms), or false when the database is in memory. Decision 38-02.
   */
  async copyDataDir(to: string): Promise<number | false> {
    return this.call<number | false>({ op: 'copyDataDir', to });
  }

  async close(): Promise<void> {
    if (!this.failure) await this.call({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}
