import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { HttpError } from '#server/http/http-errors';

/**
 * The bounded worker pool (issue 18, decision 18-01): every CPU-heavy task (SVG parsing and
 * sanitizing, card rendering, image re-encoding, thumbnails, background removal) runs on worker
 * threads so the main thread keeps answering `/p/{id}` and `/api/health`.
 *
 * - Size: one worker per core but one (the main thread keeps a core), at least one;
 *   `WORKER_POOL_SIZE` overrides.
 * - Each task has a time limit (`WORKER_TASK_TIMEOUT_MS`), counted from the moment a worker starts
 *   it (the worker says so on a MessagePort; waiting in the queue does not count): over it, the task
 *   is aborted (piscina ends its worker and starts a fresh one) and the caller gets a 422 with the
 *   kind's message.
 * - Each kind of work has its own bounded queue (`WORKER_QUEUE_SIZE` waiting tasks per kind):
 *   when it is full the answer is 503 with Retry-After, so a flood of one kind (uploads) cannot
 *   queue forever nor starve another (card renders).
 *
 * The pool is one per process (feature code calls `runTask` without a context); `configureWorkerPool`
 * sets its options at start-up and `closeWorkerPool` ends it at shutdown.
 */

export type TaskKind = 'render' | 'svg' | 'image' | 'ai';

export interface WorkerPoolOptions {
  /** worker threads (default: cores - 1, at least 1) */
  size: number;
  /** per-task time limit */
  taskTimeoutMs: number;
  /** tasks of one kind that may wait for a worker (beyond the running ones) */
  queueSize: number;
  /** Linux nice value of every thread but the event loop's (0 to 19; worker.ts) */
  nice: number;
}

export function defaultPoolSize(cores = os.availableParallelism?.() ?? os.cpus().length): number {
  return Math.max(1, cores - 1);
}

/** A worker with nothing to do for this long ends. */
const IDLE_WORKER_MS = 30_000;

const DEFAULTS: WorkerPoolOptions = { size: defaultPoolSize(), taskTimeoutMs: 5000, queueSize: 16, nice: 19 };

/** Messages a 422 carries when a task runs over its limit, by kind. */
const TOO_COMPLEX: Record<TaskKind, string> = {
  render: 'This design is too complex to render',
  svg: 'This SVG is too complex',
  image: 'This image is too complex to process',
  ai: 'This image is too complex to process',
};

/** A task failure the worker reports as an HTTP answer (see src/server/worker.ts). */
export interface TaskFailure {
  __taskError: { statusCode: number; message: string; errors?: Record<string, string> };
}

function isTaskFailure(v: unknown): v is TaskFailure {
  return typeof v === 'object' && v !== null && '__taskError' in v;
}

/** What the worker entry's `run` receives (src/server/worker.ts). */
export interface TaskMessage {
  task: string;
  arg: unknown;
}

/** The worker entry: the bundled file in dist/, or the TypeScript source through tsx (Vitest, tsx). */
function workerEntry(): string {
  const here = import.meta.url;
  // from source: worker threads do not inherit the TypeScript loader; scripts/worker-dev.mjs loads
  // src/server/worker.ts through tsx's API
  if (here.endsWith('.ts')) return fileURLToPath(new URL('../../../scripts/worker-dev.mjs', here));
  // bundled: dist/server/server.js (or admin.js) sits beside dist/server/worker.js
  return fileURLToPath(new URL('./worker.js', here));
}

export class WorkerPool {
  readonly options: WorkerPoolOptions;
  private readonly piscina: Piscina;
  private readonly inFlight = new Map<TaskKind, number>();
  private closed = false;

  constructor(options: Partial<WorkerPoolOptions> = {}) {
    this.options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    this.piscina = new Piscina({
      filename: workerEntry(),
      name: 'run',
      // one worker stays warm (the server starts it at boot, src/server/server.ts), so the first
      // thumbnail or upload after a quiet spell does not wait for a worker to load sharp and resvg
      // and jsdom (about a second); extra workers start on demand and leave after a quiet spell.
      minThreads: Math.min(1, this.options.size),
      maxThreads: this.options.size,
      idleTimeout: IDLE_WORKER_MS,
      // the per-kind limits below bound the queue; piscina's own queue is their sum
      maxQueue: this.options.queueSize * 4 + this.options.size * 4,
      // a runaway parse cannot take the process's memory with it; a young generation of 8 MB keeps
      // the warm worker about 25 MB smaller at idle (decision 18-03): a task's bulk (pixels, PDF
      // bytes) lives outside the JavaScript heap
      resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 8 },
      env: process.env as Record<string, string>,
      workerData: { nice: this.options.nice },
    });
    // a worker that dies outside a task (out of memory) is replaced by piscina; nothing to do here
    this.piscina.on('error', () => undefined);
  }

  /** Tasks of a kind running or waiting now. */
  pending(kind: TaskKind): number {
    return this.inFlight.get(kind) ?? 0;
  }

  /**
   * Runs `name` (an export of src/server/worker.ts) with `arg` on a worker. Rejects with a 422 when
   * it runs over the time limit, 503 + Retry-After when the kind's queue is full or the pool is
   * closing, and the task's own HttpError when it refused its input.
   */
  async run<R>(kind: TaskKind, name: string, arg: unknown, opts: { timeoutMs?: number; tooComplex?: string; transferList?: ArrayBuffer[] } = {}): Promise<R> {
    if (this.closed) throw new HttpError(503, 'The server is shutting down. Please try again.', undefined, { 'retry-after': '5' });
    const busy = this.pending(kind);
    if (busy >= this.options.size + this.options.queueSize) {
      throw new HttpError(503, 'The server is busy. Please try again in a moment.', undefined, { 'retry-after': String(this.retryAfterSeconds(busy)) });
    }
    this.inFlight.set(kind, busy + 1);
    const timeoutMs = opts.timeoutMs ?? this.options.taskTimeoutMs;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // the clock starts when a worker takes the task (time in the queue is not the task's fault)
    const started = new MessageChannel();
    started.port1.once('message', () => {
      timer = setTimeout(() => controller.abort(new TaskTimeoutError()), timeoutMs);
      started.port1.close();
    });
    try {
      const message = { task: name, arg, started: started.port2 };
      const out: unknown = await this.piscina.run(message, { signal: controller.signal, transferList: [started.port2 as never, ...(opts.transferList ?? [])] });
      if (isTaskFailure(out)) throw new HttpError(out.__taskError.statusCode, out.__taskError.message, out.__taskError.errors);
      return out as R;
    } catch (err) {
      if (err instanceof HttpError) throw err;
      if (controller.signal.aborted) throw new HttpError(422, opts.tooComplex ?? TOO_COMPLEX[kind]);
      // a worker ended by its memory limit: the input was too much for it
      if ((err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY') throw new HttpError(422, opts.tooComplex ?? TOO_COMPLEX[kind]);
      if (this.closed) throw new HttpError(503, 'The server is shutting down. Please try again.', undefined, { 'retry-after': '5' });
      throw err;
    } finally {
      clearTimeout(timer);
      started.port1.close();
      this.inFlight.set(kind, this.pending(kind) - 1);
    }
  }

  /** About how long until a queue slot frees: the queue's length times a typical task, 1..30 s. */
  private retryAfterSeconds(queued: number): number {
    const meanMs = this.piscina.histogram?.runTime?.mean;
    const per = Number.isFinite(meanMs) && meanMs > 0 ? meanMs : 200;
    return Math.min(30, Math.max(1, Math.ceil((queued * per) / this.options.size / 1000)));
  }

  /** Stops taking tasks and ends the workers (running tasks are abandoned: their callers get 503). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.destroy().catch(() => undefined);
  }

  /** Worker threads alive now (tests, metrics). */
  get threads(): number {
    return this.piscina.threads.length;
  }
}

class TaskTimeoutError extends Error {
  constructor() {
    super('task time limit reached');
    this.name = 'AbortError';
  }
}

let options: Partial<WorkerPoolOptions> = {};
let pool: WorkerPool | null = null;

/** Sets the pool's options (start-up, from the settings); an existing pool is replaced on next use. */
export function configureWorkerPool(next: Partial<WorkerPoolOptions>): void {
  const same = JSON.stringify({ ...DEFAULTS, ...options }) === JSON.stringify({ ...DEFAULTS, ...next });
  options = next;
  if (pool && !same) {
    const old = pool;
    pool = null;
    void old.close();
  }
}

/** The process's pool (made on first use). */
export function workerPool(): WorkerPool {
  pool ??= new WorkerPool(options);
  return pool;
}

/** Shorthand for `workerPool().run(...)`. */
export function runTask<R>(kind: TaskKind, name: string, arg: unknown, opts?: Parameters<WorkerPool['run']>[3]): Promise<R> {
  return workerPool().run<R>(kind, name, arg, opts);
}

/** Ends the pool (shutdown); a later task starts a new one. */
export async function closeWorkerPool(): Promise<void> {
  const p = pool;
  pool = null;
  if (p) await p.close();
}

/** Bytes from a worker (a transferred Uint8Array) as a Buffer without copying. */
export function asBuffer(u8: Uint8Array): Buffer {
  return Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}
