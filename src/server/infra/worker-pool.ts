import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { HttpError } from '#server/http/http-errors';
import { currentRequestSignal, laneCounters, poolLog, type Lane } from './lanes';
import { closeProcessPool, processPool } from './process-pool';

/**
 * The worker threads (issue 18, decision 18-01; lanes: issue 32, decision 32-02). Trusted heavy
 * work (our own templates with validated data, QR codes of our own data) runs on worker threads so
 * the main thread keeps answering `/p/{id}` and `/api/health`; work on untrusted bytes (`upload`,
 * `ai`) runs in child processes we can kill (src/server/infra/process-pool.ts). `runTask` picks by lane:
 *
 * - `visitor`: one thread of its own (reserved: nothing else runs there), at the priority of the
 *   thread that answers requests: a QR code PNG, a contact-file photo, a public thumbnail never
 *   waits behind a render or an upload.
 * - `render`: `WORKER_POOL_SIZE` threads (default: cores - 1, at least 1) at nice `WORKER_NICE`.
 * - `scan`: one thread of its own for the linear SVG scan of an upload (src/server/infra/svg/svg-scan.ts,
 *   pure JavaScript, linear, inputs capped at 1 MB), before the sandbox: a refusal the scan can
 *   decide never waits for a sandbox process to start. At the event loop's priority, like `visitor`.
 * - Each task has a time limit (`WORKER_TASK_TIMEOUT_MS`). Waiting is bounded from arrival: a task
 *   not started by then leaves the queue with 503 + Retry-After (while the lane's first thread is
 *   still loading, a cold start, it waits up to STARTUP_GRACE_MS instead). Once started (the worker
 *   says so on a MessagePort) it has the whole limit to run: past it, it is aborted (piscina ends
 *   its worker and starts a fresh one) and the caller gets a 422 with the lane's message. Threads
 *   only run trusted work and the linear scan, so a run limit from the start is safe here; the
 *   sandbox, which runs untrusted native work, counts its deadline from arrival (process-pool.ts). A waiting task whose caller went away (the
 *   request's connection closed) leaves the queue; a running one finishes (they are short, and
 *   ending a thread costs the next visitor its start-up). A thread cannot stop native code, which
 *   is why untrusted bytes only come here for the pure-JavaScript scan.
 * - Each lane has its own bounded queue (`WORKER_QUEUE_SIZE` waiting tasks): when it is full the
 *   answer is 503 with Retry-After.
 *
 * The pools are one per process (feature code calls `runTask` without a context); `configureWorkerPool`
 * sets their options at start-up and `closeWorkerPool` ends them at shutdown.
 */

export type TaskKind = Lane;
type ThreadLane = 'visitor' | 'render' | 'scan';

export interface WorkerPoolOptions {
  /** render worker threads (default: cores - 1, at least 1) */
  size: number;
  /** per-task time limit */
  taskTimeoutMs: number;
  /** tasks of one lane that may wait for a worker (beyond the running ones) */
  queueSize: number;
  /** Linux nice value of every thread but the event loop's, the database's and the visitor lane's (0 to 19; worker.ts) */
  nice: number;
}

export function defaultPoolSize(cores = os.availableParallelism?.() ?? os.cpus().length): number {
  return Math.max(1, cores - 1);
}

/** A worker with nothing to do for this long ends (the warm one stays). */
const IDLE_WORKER_MS = 30_000;
/** Threads of the visitor lane: its tasks are short (a QR PNG is a few milliseconds). */
const VISITOR_THREADS = 1;
/** Threads of the scan lane: the linear scan of one upload (at most 1 MB) at a time. */
const SCAN_THREADS = 1;

const DEFAULTS: WorkerPoolOptions = { size: defaultPoolSize(), taskTimeoutMs: 5000, queueSize: 16, nice: 19 };

/** Messages a 422 carries when a task runs over its limit, by lane. */
const TOO_COMPLEX: Record<ThreadLane, string> = {
  render: 'This design is too complex to render',
  visitor: 'This image is too complex to process',
  scan: 'This SVG is too complex',
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

/** What a worker thread knows of its pool (src/server/worker.ts). */
export interface WorkerThreadData {
  nice: number;
  /** the visitor lane's thread keeps the event loop's priority and names itself VISITOR_THREAD_NAME */
  visitor: boolean;
  /** the scan lane's thread keeps the event loop's priority and names itself SCAN_THREAD_NAME */
  scan?: boolean;
}
export const VISITOR_THREAD_NAME = 'mc-visitor';
export const SCAN_THREAD_NAME = 'mc-scan';

/** The worker entry: the bundled file in dist/, or the TypeScript source through tsx (Vitest, tsx). */
function workerEntry(): string {
  const here = import.meta.url;
  // from source: worker threads do not inherit the TypeScript loader; scripts/worker-dev.mjs loads
  // src/server/worker.ts through tsx's API
  if (here.endsWith('.ts')) return fileURLToPath(new URL('../../../scripts/worker-dev.mjs', here));
  // bundled: dist/server/server.js (or admin.js) sits beside dist/server/worker.js
  return fileURLToPath(new URL('./worker.js', here));
}

/**
 * A running task that has not yet used its time limit in CPU (it waited for a core) runs on, up to
 * this many times the limit on the clock.
 */
const STARVED_WALL_FACTOR = 6;

/** CPU time a thread of this process has used, in ms (Linux: its schedstat; undefined elsewhere). */
export function threadCpuMs(tid: number): number | undefined {
  try {
    const ns = Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** Longest a task waits for a lane's first thread to load (start-up only). */
const STARTUP_GRACE_MS = 30_000;

class ThreadLanePool {
  readonly piscina: Piscina;
  private inFlight = 0;
  /** a thread of this lane has started a task: the lane is loaded */
  private everStarted = false;

  constructor(
    readonly lane: ThreadLane,
    readonly size: number,
    private readonly opts: WorkerPoolOptions,
  ) {
    this.piscina = new Piscina({
      filename: workerEntry(),
      name: 'run',
      // one worker stays warm (the server starts it at boot, src/server/server.ts), so the first
      // thumbnail or QR code after a quiet spell does not wait for a worker to load sharp and resvg
      // (about a second); extra workers start on demand and leave after a quiet spell.
      minThreads: Math.min(1, size),
      maxThreads: size,
      idleTimeout: IDLE_WORKER_MS,
      // the lane's limit below bounds the queue; piscina's own queue is a little larger
      maxQueue: opts.queueSize + size * 4,
      // a worker waits for its next task in its event loop, not blocked in Atomics.wait (piscina's
      // default): native objects' finalizers (resvg's pixmaps and trees, sharp's buffers) and
      // timers run between tasks. Blocked, the visitor lane's thread never freed a pixmap: 2,000 QR
      // code PNGs kept 818 MB (decision 32-11)
      atomics: 'disabled',
      // a young generation of 8 MB keeps the warm worker about 25 MB smaller at idle (decision
      // 18-03): a task's bulk (pixels, PDF bytes) lives outside the JavaScript heap. The scan and
      // visitor lanes hold little live data (a scanned text, a QR code), so a small old
      // generation makes V8 collect early instead of growing the server by hundreds of MB in a
      // storm of 1 MB files (decision 32-05)
      resourceLimits: { maxOldGenerationSizeMb: lane === 'render' ? 512 : 96, maxYoungGenerationSizeMb: 8 },
      env: process.env as Record<string, string>,
      workerData: { nice: opts.nice, visitor: lane === 'visitor', scan: lane === 'scan' } satisfies WorkerThreadData,
    });
    // a worker that dies outside a task (out of memory) is replaced by piscina; nothing to do here
    this.piscina.on('error', () => undefined);
  }

  get pending(): number {
    return this.inFlight;
  }

  async run<R>(name: string, arg: unknown, opts: { timeoutMs?: number; tooComplex?: string; transferList?: ArrayBuffer[]; signal?: AbortSignal }, closed: () => boolean): Promise<R> {
    const counters = laneCounters(this.lane);
    const gone = opts.signal ?? currentRequestSignal();
    if (gone?.aborted) throw new HttpError(499, 'The request was closed before its answer.');
    if (this.inFlight >= this.size + this.opts.queueSize) {
      counters.rejected['503']++;
      throw new HttpError(503, 'The server is busy. Please try again in a moment.', undefined, { 'retry-after': String(this.retryAfterSeconds(this.inFlight)) });
    }
    this.inFlight++;
    counters.queued++;
    let running = false;
    const timeoutMs = opts.timeoutMs ?? this.opts.taskTimeoutMs;
    const controller = new AbortController();
    // waiting is bounded from arrival; running has the whole limit from its start
    let timedOut = false;
    let abandoned = false;
    const arrived = performance.now();
    // the thread running the task (Linux) and its CPU time when the task started
    let tid = 0;
    let cpuAtStart: number | undefined;
    let startedAt = 0;
    const onDeadline = () => {
      if (!running && !this.everStarted && performance.now() - arrived < STARTUP_GRACE_MS) {
        timer = setTimeout(onDeadline, 250);
        return;
      }
      // a running task's limit is CPU time: on a machine busy with other work a thread at nice +19
      // may get a few percent of a core, and a design that needs 300 ms of CPU is not "too
      // complex" because it waited 5 s for it. Up to STARVED_WALL_FACTOR times the limit on the clock.
      if (running && cpuAtStart !== undefined) {
        const used = threadCpuMs(tid);
        if (used !== undefined && used - cpuAtStart < timeoutMs * 0.9 && performance.now() - startedAt < timeoutMs * STARVED_WALL_FACTOR) {
          timer = setTimeout(onDeadline, Math.max(50, timeoutMs - (used - cpuAtStart)));
          return;
        }
      }
      timedOut = true;
      controller.abort(new TaskTimeoutError());
    };
    let timer = setTimeout(onDeadline, timeoutMs);
    const onGone = () => {
      if (running) return;
      abandoned = true;
      controller.abort(new TaskTimeoutError());
    };
    gone?.addEventListener('abort', onGone, { once: true });
    const started = new MessageChannel();
    started.port1.once('message', (threadId: unknown) => {
      running = true;
      startedAt = performance.now();
      tid = typeof threadId === 'number' ? threadId : 0;
      cpuAtStart = tid ? threadCpuMs(tid) : undefined;
      this.everStarted = true;
      clearTimeout(timer);
      timer = setTimeout(onDeadline, timeoutMs);
      counters.queued--;
      counters.running++;
      started.port1.close();
    });
    try {
      const message = { task: name, arg, started: started.port2 };
      const out: unknown = await this.piscina.run(message, { signal: controller.signal, transferList: [started.port2 as never, ...(opts.transferList ?? [])] });
      if (isTaskFailure(out)) throw new HttpError(out.__taskError.statusCode, out.__taskError.message, out.__taskError.errors);
      return out as R;
    } catch (err) {
      if (err instanceof HttpError) throw err;
      if (abandoned) {
        counters.killed.abandoned++;
        throw new HttpError(499, 'The request was closed before its answer.');
      }
      if (timedOut && !running) {
        counters.rejected['503']++;
        poolLog('warn', { lane: this.lane, task: name, limitMs: timeoutMs }, 'worker task still waiting at its time limit');
        throw new HttpError(503, 'The server is busy. Please try again in a moment.', undefined, { 'retry-after': String(Math.max(1, Math.ceil(timeoutMs / 1000))) });
      }
      if (controller.signal.aborted) {
        counters.killed.deadline++;
        poolLog('warn', { lane: this.lane, task: name, reason: 'deadline', limitMs: timeoutMs }, 'worker task ended at its time limit');
        throw new HttpError(422, opts.tooComplex ?? TOO_COMPLEX[this.lane]);
      }
      // a worker ended by its memory limit: the input was too much for it
      if ((err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        counters.killed.rlimit++;
        throw new HttpError(422, opts.tooComplex ?? TOO_COMPLEX[this.lane]);
      }
      if (closed()) throw new HttpError(503, 'The server is shutting down. Please try again.', undefined, { 'retry-after': '5' });
      throw err;
    } finally {
      clearTimeout(timer);
      gone?.removeEventListener('abort', onGone);
      started.port1.close();
      this.inFlight--;
      if (running) counters.running--;
      else counters.queued--;
    }
  }

  /** About how long until a queue slot frees: the queue's length times a typical task, 1..30 s. */
  private retryAfterSeconds(queued: number): number {
    const meanMs = this.piscina.histogram?.runTime?.mean;
    const per = Number.isFinite(meanMs) && meanMs > 0 ? meanMs : 200;
    return Math.min(30, Math.max(1, Math.ceil((queued * per) / this.size / 1000)));
  }
}

export class WorkerPool {
  readonly options: WorkerPoolOptions;
  private readonly lanes: Record<ThreadLane, ThreadLanePool>;
  private closed = false;

  constructor(options: Partial<WorkerPoolOptions> = {}) {
    this.options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    this.lanes = {
      visitor: new ThreadLanePool('visitor', VISITOR_THREADS, this.options),
      render: new ThreadLanePool('render', this.options.size, this.options),
      scan: new ThreadLanePool('scan', SCAN_THREADS, this.options),
    };
  }

  /** Tasks of a lane running or waiting now. */
  pending(kind: TaskKind): number {
    if (kind === 'visitor' || kind === 'render' || kind === 'scan') return this.lanes[kind].pending;
    return processPool().pending(kind);
  }

  /**
   * Runs `name` (an export of src/server/worker.ts) with `arg` on a worker of the lane. Rejects with
   * a 422 when it runs over the time limit, 503 + Retry-After when the lane's queue is full or the
   * pool is closing, and the task's own HttpError when it refused its input.
   */
  async run<R>(kind: ThreadLane, name: string, arg: unknown, opts: { timeoutMs?: number; tooComplex?: string; transferList?: ArrayBuffer[]; signal?: AbortSignal } = {}): Promise<R> {
    if (this.closed) {
      laneCounters(kind).rejected['503']++;
      throw new HttpError(503, 'The server is shutting down. Please try again.', undefined, { 'retry-after': '5' });
    }
    return this.lanes[kind].run<R>(name, arg, opts, () => this.closed);
  }

  /**
   * Stops taking tasks and ends the workers (running tasks are abandoned: their callers get 503).
   * Resolves when piscina has ended them, or after `boundMs`: a thread inside a native call cannot
   * be ended, and shutdown must not wait for it.
   */
  async close(boundMs = 1000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const destroyed = Promise.all(Object.values(this.lanes).map((l) => l.piscina.destroy().catch(() => undefined)));
    await Promise.race([destroyed, new Promise((r) => setTimeout(r, boundMs).unref())]);
  }

  /** Worker threads alive now (tests, metrics). */
  get threads(): number {
    return this.lanes.visitor.piscina.threads.length + this.lanes.render.piscina.threads.length + this.lanes.scan.piscina.threads.length;
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

/** The process's thread pools (made on first use). */
export function workerPool(): WorkerPool {
  pool ??= new WorkerPool(options);
  return pool;
}

/**
 * Runs a task in its lane: `visitor` and `render` on worker threads (src/server/worker.ts),
 * `upload` and `ai` in the sandbox's child processes (src/server/sandbox-worker.ts).
 */
export function runTask<R>(kind: TaskKind, name: string, arg: unknown, opts?: { timeoutMs?: number; tooComplex?: string; transferList?: ArrayBuffer[]; quota?: boolean; signal?: AbortSignal }): Promise<R> {
  if (kind === 'upload' || kind === 'ai') return processPool().run<R>(kind, name, arg, opts);
  return workerPool().run<R>(kind, name, arg, opts);
}

/** Ends the thread pools and the sandbox (shutdown), waiting at most `boundMs`; a later task starts new ones. */
export async function closeWorkerPool(boundMs = 1000): Promise<void> {
  closeProcessPool();
  const p = pool;
  pool = null;
  if (p) await p.close(boundMs);
}

/** Bytes from a worker (a transferred Uint8Array) as a Buffer without copying. */
export function asBuffer(u8: Uint8Array): Buffer {
  return Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}
