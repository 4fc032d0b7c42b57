import { execFile, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HttpError } from '#server/http/http-errors';
import { currentClient, currentRequestSignal, laneCounters, poolLog, type KillReason } from './lanes';

/**
 * The sandbox: a small pool of child processes for work on untrusted bytes (issue 32, decision
 * 32-02). Native code (resvg, libvips) cannot be interrupted on a worker thread; a process can be
 * killed. So:
 *
 * - each child runs `server/sandbox-worker.ts` (bundled to dist/server/sandbox-worker.js), started
 *   through `prlimit` with a CPU-seconds limit (`SANDBOX_CPU_SECONDS`, over the child's life: a
 *   backstop if this process could not kill it; the pool retires a child that used half of it)
 *   and a data-segment limit (`SANDBOX_MEMORY_MB`, RLIMIT_DATA: RLIMIT_AS cannot be used with
 *   V8, which reserves gigabytes of address space), and through `nice` at the workers' priority;
 * - a task's deadline counts from its arrival: still waiting then, it leaves the queue and answers
 *   503 + Retry-After (the server is busy, not the file); running then, its child is SIGKILLed (not
 *   asked) and the caller gets 422; a child that died (its rlimit, an allocation that failed) also
 *   answers 422; either way a fresh child starts (at once for a waiting task, else as the warm spare
 *   3 s later). So every answer comes by the deadline, but for one case: a running task whose
 *   child had less than a fifth of a core since the task started (starved at nice 19 on a busy
 *   machine, not working) runs on, up to 6 times its limit from arrival (decision 32-09);
 * - a caller that went away (the request's connection closed: `signal`) takes its task with it:
 *   dropped from the queue, or its child SIGKILLed, and its quota slot freed at once;
 * - `warm` children stay loaded (sharp, resvg), so an upload's round trip is a message, not
 *   a process start;
 * - each lane (`upload`, `ai`) has a bounded queue (`WORKER_QUEUE_SIZE`; full: 503 + Retry-After),
 *   `ai` never takes the last child, and one client (account, or address when signed out) has at
 *   most `HEAVY_TASKS_PER_CLIENT` tasks running or waiting (beyond: 429 + Retry-After);
 * - at shutdown every child is SIGKILLed at once, and again from the process's `exit` handler.
 *
 * Messages go over the IPC channel with the `advanced` serialization (typed arrays pass as they are).
 */

export type SandboxLane = 'upload' | 'ai';

export interface ProcessPoolOptions {
  /** children at most */
  size: number;
  /** children kept started and loaded when idle */
  warm: number;
  /** a task's deadline, counted from its arrival (queue wait included) */
  taskTimeoutMs: number;
  /** tasks of one lane that may wait for a child */
  queueSize: number;
  /** RLIMIT_CPU of a child (seconds of CPU over its life) */
  cpuSeconds: number;
  /** RLIMIT_DATA of a child (MB) */
  memoryMb: number;
  /** nice value of the children (0 to 19) */
  nice: number;
  /** tasks one client may have running or waiting (0: no limit) */
  perClient: number;
  /** the child's entry (tests); default: the bundled sandbox-worker.js, or its source through tsx */
  entry?: string;
  /** a running task with less than this share of a core since it started is starved at its deadline and runs on (0: never; decision 32-09) */
  starvedShare: number;
}

const DEFAULTS: ProcessPoolOptions = { size: 2, warm: 2, taskTimeoutMs: 5000, queueSize: 16, cpuSeconds: 60, memoryMb: 384, nice: 19, perClient: 2, starvedShare: 0.2 };

/** Longest a task waits for the pool's first child to load (start-up only; decision 32-02). */
const STARTUP_GRACE_MS = 30_000;
/** ...but never past this many times its limit from arrival (the caller never waits without bound) */
const STARVED_WALL_FACTOR = 6;
/**
 * The most a task's deadline moves for the one-time load of its own code in a fresh child (pdf.js
 * for a PDF: about 0.3 s of CPU): that load is ours, not the file's work, and happens before the
 * input is read, so an attacker cannot stretch it.
 */
export const PREPARE_GRACE_MAX_MS = 5000;

/** A child idle this long beyond the warm ones ends. */
const IDLE_CHILD_MS = 30_000;

/**
 * After a child was killed or retired, the warm spare that replaces it starts this much later
 * (a task that arrives meanwhile starts one at once). Kills come in bursts from hostile traffic:
 * loading a spare (sharp, resvg: most of a second of CPU) right after each one would only burn
 * CPU while the storm lasts and keep it busy after its last answer (decision 32-06).
 */
const REFILL_AFTER_LOSS_MS = 3000;

const TOO_COMPLEX: Record<SandboxLane, string> = {
  upload: 'This file is too complex to process',
  ai: 'This image is too complex to process',
};

/** Messages between the pool and a child (src/server/sandbox-worker.ts). */
export type ToChild = { id: number; task: string; arg: unknown };
export type FromChild =
  | { ready: true }
  /** the task's own code was loaded first (a one-time load in this child, before the input is read), in ms */
  | { id: number; prepared: number }
  | { id: number; ok: unknown }
  | { id: number; failure: { statusCode: number; message: string; errors?: Record<string, string> } }
  | { id: number; error: string };

interface Job {
  id: number;
  /** performance.now() past which the task answers (arrival + its limit) */
  deadlineAt: number;
  timer?: NodeJS.Timeout;
  /** it waited past its deadline for the pool's first child to load (start-up grace) */
  graced?: boolean;
  /** its deadline already moved for the child's one-time load of the task's code */
  prepared?: boolean;
  /** the child running it, once taken */
  child?: Child;
  /** when a child took it, and that child's CPU time then (ms; Linux), for the starvation check */
  startedAt?: number;
  cpuAtStart?: number;
  signal?: AbortSignal;
  onAbort?: () => void;
  lane: SandboxLane;
  task: string;
  arg: unknown;
  timeoutMs: number;
  tooComplex: string;
  client: string | undefined;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

interface Child {
  proc: ChildProcess;
  pid: number;
  ready: boolean;
  job: Job | null;
  startedAt: number;
  idleSince: number;
  /** set when the pool ended it (deadline, retirement, shutdown): its exit is expected */
  endedBy?: KillReason | 'retired' | 'closed';
  stderr: string;
}

function existing(p: string): string | null {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return p;
  } catch {
    return null;
  }
}
const PRLIMIT = existing('/usr/bin/prlimit') ?? existing('/bin/prlimit');
const NICE = existing('/usr/bin/nice') ?? existing('/bin/nice');

const runtimeData = new Map<number, number>();
/**
 * The data segment (VmData, bytes) a fresh child holds before it does anything, with `threads` more
 * V8 instances running (worker threads: tsx's loader in the dev entry). The memory limit
 * (RLIMIT_DATA) is this plus `memoryMb`: Node.js 24's V8 reserves about 512 MB of address space per
 * V8 instance (code range, cages) as private writable mappings, which the limit counts although none
 * of it is touched (20 and 22: about 48 MB in all), and under a 384 MB limit every child died before
 * its first line ("Failed to reserve virtual memory for CodeRange"), so no task ever ran (decision
 * 38-03). Measured once per process by a child of its own, in the background (the thread that
 * answers requests never waits for it); until the answer comes, an estimate by Node.js version.
 */
function runtimeDataBytes(threads: number): number {
  const known = runtimeData.get(threads);
  if (known !== undefined) return known;
  void probeRuntimeData(threads);
  const major = Number(process.versions.node.split('.')[0]);
  return (threads + 1) * (major >= 24 ? 640 : 64) * 1024 * 1024;
}

const probes = new Map<number, Promise<void>>();
/** Whether the measure for `threads` has answered (with a figure, or failed: the estimate stays). */
const probed = new Set<number>();

function probeRuntimeData(threads: number): Promise<void> {
  const known = probes.get(threads);
  if (known) return known;
  const probe = `const vm = () => (/VmData:\\s*(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8')) ?? [0, '0'])[1];
const { Worker } = require('worker_threads');
let left = ${threads};
const done = () => { process.stdout.write(vm()); process.exit(0); };
if (!left) done();
for (let i = 0; i < ${threads}; i++) new Worker('setInterval(() => {}, 1000)', { eval: true }).on('online', () => --left || done());`;
  const p = new Promise<void>((resolve) => {
    execFile(process.execPath, ['--max-semi-space-size=8', '-e', probe], { encoding: 'utf8', timeout: 20_000, env: { ...CHILD_MALLOC_ENV, ...process.env } }, (err, stdout) => {
      const kb = err ? 0 : Number(stdout) || 0;
      // nothing measured (not Linux, a probe that failed): the estimate stays
      if (kb > 0) runtimeData.set(threads, kb * 1024);
      probed.add(threads);
      resolve();
    });
  });
  probes.set(threads, p);
  return p;
}

function defaultEntry(): string {
  const here = import.meta.url;
  // from source (Vitest, tsx): a child node does not know TypeScript; the dev entry loads the
  // source through tsx's API
  if (here.endsWith('.ts')) return fileURLToPath(new URL('../../../scripts/sandbox-dev.mjs', here));
  return fileURLToPath(new URL('./sandbox-worker.js', here));
}

/** A child's CPU time in ms, undefined where /proc cannot tell (not Linux, or it ended). */
function cpuMsOf(pid: number): number | undefined {
  return fs.existsSync(`/proc/${pid}/stat`) ? processCpuSeconds(pid) * 1000 : undefined;
}

/** CPU seconds a process has used (utime + stime from /proc), or 0 when unknown. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11], [12]: utime, stime (clock ticks; 100 a second on Linux)
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** A process's resident memory in MB (Linux /proc; 0 elsewhere or once it ended). */
export function processRssMb(pid: number): number {
  try {
    // statm: size resident shared ... (pages)
    const resident = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (resident * 4096) / 1048576;
  } catch {
    return 0;
  }
}

/**
 * glibc keeps freed memory of large allocations (a decoded image, a pixmap) in its heaps, so a
 * child that drew one big picture stays big. These make allocations over 128 KB their own
 * mappings (returned on free, no growing threshold) and keep the number of heaps small. A value
 * set by the operator wins.
 */
const CHILD_MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

export class ProcessPool {
  readonly options: ProcessPoolOptions;
  private readonly children = new Set<Child>();
  private readonly queues: Record<SandboxLane, Job[]> = { upload: [], ai: [] };
  private readonly perClient = new Map<string, number>();
  private nextId = 1;
  private readyWaiters: Array<() => void> = [];
  /** a child has loaded at least once: until then, queued tasks wait out the start-up grace */
  private everReady = false;
  private closed = false;
  /** the first spawn waits for the measure of the runtime's reservations (probeRuntimeData) */
  private awaitingProbe = false;
  private turn = 0;
  private trimTimer: NodeJS.Timeout | undefined;
  /** when a child last ended by a kill or retirement (Date.now()), and the delayed refill */
  private lostAt = 0;
  private refillTimer: NodeJS.Timeout | undefined;
  private readonly onExit = () => this.killAll();

  constructor(options: Partial<ProcessPoolOptions> = {}) {
    this.options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    this.options.warm = Math.min(this.options.warm, this.options.size);
    process.on('exit', this.onExit);
    // the children's memory limit needs what a fresh one holds: measured now, in the background
    if (PRLIMIT) probeRuntimeData((this.options.entry ?? defaultEntry()).endsWith('sandbox-dev.mjs') ? 1 : 0);
  }

  /** Starts the warm children now (the server calls it after listen). */
  warmUp(): void {
    this.topUp();
  }

  /** Resolves once a child is loaded and ready (starting the warm ones if needed): tests, start-up. */
  whenReady(): Promise<void> {
    this.topUp(true);
    if ([...this.children].some((c) => c.ready)) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Pids of the children alive now (tests, metrics). */
  get pids(): number[] {
    return [...this.children].map((c) => c.pid);
  }

  pending(lane: SandboxLane): number {
    const c = laneCounters(lane);
    return c.queued + c.running;
  }

  /**
   * Runs `task` (a name in src/server/sandbox-worker.ts) in a child. Rejects with the task's own
   * HttpError when it refused its input, 422 at the deadline or when the child died, 429 +
   * Retry-After past the client's quota, 503 + Retry-After when the lane's queue is full or the
   * pool is closing.
   */
  run<R>(lane: SandboxLane, task: string, arg: unknown, opts: { timeoutMs?: number; tooComplex?: string; quota?: boolean; signal?: AbortSignal } = {}): Promise<R> {
    const counters = laneCounters(lane);
    const arrived = performance.now();
    // the caller that went away: the request's connection (lanes.ts), unless given
    const signal = opts.signal ?? currentRequestSignal();
    if (signal?.aborted) return Promise.reject(callerGone());
    const timeoutMs = opts.timeoutMs ?? this.options.taskTimeoutMs;
    if (this.closed) {
      counters.rejected['503']++;
      return Promise.reject(new HttpError(503, 'The server is shutting down. Please try again.', undefined, { 'retry-after': '5' }));
    }
    // work the server starts on its own stored bytes (a card's logo during a render) is not the
    // client's upload: no quota
    const client = opts.quota === false ? undefined : currentClient();
    if (client && this.options.perClient > 0 && (this.perClient.get(client) ?? 0) >= this.options.perClient) {
      counters.rejected['429']++;
      const wait = String(Math.max(1, Math.ceil(timeoutMs / 1000)));
      return Promise.reject(
        new HttpError(429, `Too many files are being processed for you at once (at most ${this.options.perClient}). Please wait for them to finish and try again.`, undefined, { 'retry-after': wait }),
      );
    }
    // an idle child takes a task at once: only tasks beyond the idle children wait
    if (this.queues[lane].length >= this.options.queueSize + this.idleChildren()) {
      counters.rejected['503']++;
      const wait = Math.min(30, Math.max(1, Math.ceil(((this.queues[lane].length + 1) * Math.min(timeoutMs, 1000)) / this.options.size / 1000)));
      return Promise.reject(new HttpError(503, 'The server is busy. Please try again in a moment.', undefined, { 'retry-after': String(wait) }));
    }
    return new Promise<R>((resolve, reject) => {
      const job: Job = { id: this.nextId++, lane, task, arg, timeoutMs, deadlineAt: arrived + timeoutMs, signal, tooComplex: opts.tooComplex ?? TOO_COMPLEX[lane], client, resolve: resolve as (v: unknown) => void, reject };
      if (client) this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
      this.queues[lane].push(job);
      counters.queued++;
      // one clock from arrival: in the queue or running, the answer comes by the deadline
      job.timer = setTimeout(() => this.expire(job, 'deadline'), Math.max(0, job.deadlineAt - performance.now()));
      if (signal) {
        job.onAbort = () => this.expire(job, 'gone');
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.pump();
    });
  }

  /**
   * The job's deadline passed, or its caller went away: a waiting job leaves the queue (503 busy at
   * the deadline), a running one's child is SIGKILLed (422 at the deadline). Its quota slot is freed.
   */
  private expire(job: Job, why: 'deadline' | 'gone'): void {
    // the pool's very first child is still loading (a cold start: seconds on a busy machine): the
    // task is not late because of other work, so it waits, up to STARTUP_GRACE_MS from arrival,
    // and gets its whole limit once it starts. After the first load, deadlines count from arrival.
    const arrived = job.deadlineAt - job.timeoutMs;
    if (why === 'deadline' && !job.child && !this.everReady && !this.closed && performance.now() - arrived < STARTUP_GRACE_MS) {
      job.graced = true;
      job.timer = setTimeout(() => this.expire(job, 'deadline'), Math.max(50, Math.min(job.timeoutMs, arrived + STARTUP_GRACE_MS - performance.now())));
      return;
    }
    if (job.child) {
      if (job.child.job !== job) return;
      if (why === 'deadline' && this.starved(job)) return;
      this.kill(job.child, why === 'deadline' ? 'deadline' : 'abandoned');
      return;
    }
    const queue = this.queues[job.lane];
    const at = queue.indexOf(job);
    if (at < 0) return;
    queue.splice(at, 1);
    const counters = laneCounters(job.lane);
    counters.queued--;
    this.settle(job);
    if (why === 'gone') {
      counters.killed.abandoned++;
      job.reject(callerGone());
    } else {
      counters.rejected['503']++;
      poolLog('warn', { lane: job.lane, task: job.task, limitMs: job.timeoutMs }, 'sandbox task still waiting at its deadline');
      job.reject(new HttpError(503, 'The server is busy. Please try again in a moment.', undefined, { 'retry-after': String(Math.max(1, Math.ceil(job.timeoutMs / 1000))) }));
    }
  }

  /**
   * At its deadline, a running task whose child had less than `starvedShare` of a core since the
   * task started waited for a core rather than worked (a busy machine: the child runs at nice 19):
   * its deadline moves to when the rest could have been used, up to STARVED_WALL_FACTOR times its
   * limit from arrival. A task that burns its core is killed at its deadline as before.
   */
  private starved(job: Job): boolean {
    if (job.cpuAtStart === undefined || job.startedAt === undefined || !job.child) return false;
    const now = performance.now();
    const arrived = job.deadlineAt - job.timeoutMs;
    if (now - arrived >= job.timeoutMs * STARVED_WALL_FACTOR) return false;
    const used = cpuMsOf(job.child.pid);
    if (used === undefined) return false;
    const cpu = used - job.cpuAtStart;
    const wall = now - job.startedAt;
    // the default, a fifth: a child at nice 19 beside work at nice 0 on every core gets 1.5-3% of
    // one; two children sharing what the server leaves get 30% or more
    const share = this.options.starvedShare;
    if (!(share > 0) || cpu >= wall * share) return false;
    poolLog('info', { lane: job.lane, task: job.task, child: job.child.pid, cpuMs: Math.round(cpu), wallMs: Math.round(wall) }, 'sandbox task starved of CPU at its deadline: it runs on');
    const capLeft = arrived + job.timeoutMs * STARVED_WALL_FACTOR - now;
    job.timer = setTimeout(() => this.expire(job, 'deadline'), Math.max(50, Math.min(capLeft, Math.max(250, wall * share - cpu))));
    return true;
  }

  /** The job answers now: its timer, abort listener and quota slot go. */
  private settle(job: Job): void {
    clearTimeout(job.timer);
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    this.release(job);
  }

  private idleChildren(): number {
    let n = 0;
    for (const c of this.children) if (c.ready && !c.job) n++;
    return n;
  }

  /** The most `lane` may run at once: `ai` leaves one child to uploads when there are two or more. */
  private laneCap(lane: SandboxLane): number {
    return lane === 'ai' && this.options.size > 1 ? this.options.size - 1 : this.options.size;
  }

  /** Hands queued jobs to idle children and starts children while jobs wait. */
  private pump(): void {
    if (this.closed) return;
    for (;;) {
      const idle = [...this.children].find((c) => c.ready && !c.job);
      if (!idle) break;
      const job = this.takeJob();
      if (!job) break;
      this.start(idle, job);
    }
    const waiting = this.queues.upload.length + this.queues.ai.length;
    const starting = [...this.children].filter((c) => !c.ready).length;
    let toStart = Math.min(waiting - starting, this.options.size - this.children.size);
    while (toStart-- > 0 && this.spawn());
    this.topUp();
  }

  private takeJob(): Job | undefined {
    const lanes: SandboxLane[] = this.turn++ % 2 === 0 ? ['upload', 'ai'] : ['ai', 'upload'];
    for (const lane of lanes) {
      if (this.queues[lane].length === 0) continue;
      if (laneCounters(lane).running >= this.laneCap(lane)) continue;
      return this.queues[lane].shift();
    }
    return undefined;
  }

  /** Keeps `warm` children alive; after a loss, from REFILL_AFTER_LOSS_MS on (unless `now`). */
  private topUp(now = false): void {
    if (this.closed) return;
    const wait = this.lostAt + REFILL_AFTER_LOSS_MS - Date.now();
    if (!now && wait > 0 && this.children.size < this.options.warm) {
      this.refillTimer ??= setTimeout(() => {
        this.refillTimer = undefined;
        this.topUp();
      }, wait);
      this.refillTimer.unref();
      return;
    }
    while (this.children.size < this.options.warm && this.spawn());
  }

  /** Starts a child; false when none could start yet (the first one waits for the measure below). */
  private spawn(): boolean {
    const entry = this.options.entry ?? defaultEntry();
    const threads = entry.endsWith('sandbox-dev.mjs') ? 1 : 0;
    if (PRLIMIT && !probed.has(threads)) {
      // the first child waits for the measure of the runtime's own reservations (a child of about
      // 100 ms): started under the estimate, it could get hundreds of MB more room than its limit
      // says (the estimate is generous so that a child can always start), and a render that should
      // end at the limit would run on to its deadline
      if (!this.awaitingProbe) {
        this.awaitingProbe = true;
        void probeRuntimeData(threads).then(() => {
          this.awaitingProbe = false;
          this.pump();
        });
      }
      return false;
    }
    const node = [process.execPath, '--max-semi-space-size=8'];
    const niced = NICE && this.options.nice > 0 ? [NICE, '-n', String(this.options.nice), ...node] : node;
    const cpu = this.options.cpuSeconds;
    // the dev entry runs tsx's loader on a thread of its own: one more V8 instance
    const data = this.options.memoryMb * 1024 * 1024 + (PRLIMIT ? runtimeDataBytes(threads) : 0);
    // fork() runs `execPath ...execArgv entry`: prlimit sets the limits and execs nice, which
    // execs node, so the child keeps the IPC channel and its pid
    const [execPath, ...execArgv] = PRLIMIT ? [PRLIMIT, `--cpu=${cpu}:${cpu + 1}`, `--data=${data}:${data}`, '--', ...niced] : niced;
    const proc = fork(entry, [], { execPath, execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...CHILD_MALLOC_ENV, ...process.env } });
    const child: Child = { proc, pid: proc.pid ?? 0, ready: false, job: null, startedAt: Date.now(), idleSince: Date.now(), stderr: '' };
    this.children.add(child);
    proc.stderr?.on('data', (d: Buffer) => {
      child.stderr = (child.stderr + d.toString()).slice(-2000);
    });
    proc.on('message', (m: FromChild) => this.onMessage(child, m));
    proc.on('error', () => undefined);
    proc.on('exit', (code, signal) => this.onChildExit(child, code, signal));
    this.scheduleTrim();
    return true;
  }

  private start(child: Child, job: Job): void {
    const counters = laneCounters(job.lane);
    counters.queued--;
    counters.running++;
    child.job = job;
    job.child = child;
    job.startedAt = performance.now();
    job.cpuAtStart = cpuMsOf(child.pid);
    if (job.graced) {
      // it waited for the first child to load: its limit runs from now
      clearTimeout(job.timer);
      job.deadlineAt = performance.now() + job.timeoutMs;
      job.timer = setTimeout(() => this.expire(job, 'deadline'), job.timeoutMs);
    }
    try {
      child.proc.send({ id: job.id, task: job.task, arg: job.arg } satisfies ToChild);
    } catch {
      this.kill(child, 'crash');
    }
  }

  private onMessage(child: Child, m: FromChild): void {
    if ('ready' in m) {
      child.ready = true;
      this.everReady = true;
      child.idleSince = Date.now();
      for (const w of this.readyWaiters.splice(0)) w();
      this.pump();
      return;
    }
    const job = child.job;
    if (!job || job.id !== m.id) return;
    if ('prepared' in m) {
      // the child loaded the task's code before reading the input: the deadline moves by that much, once
      const ms = Math.min(PREPARE_GRACE_MAX_MS, Math.max(0, Number(m.prepared) || 0));
      if (job.prepared || ms === 0) return;
      job.prepared = true;
      job.deadlineAt += ms;
      job.timeoutMs += ms;
      clearTimeout(job.timer);
      job.timer = setTimeout(() => this.expire(job, 'deadline'), Math.max(0, job.deadlineAt - performance.now()));
      return;
    }
    this.finish(child);
    if ('ok' in m) job.resolve(m.ok);
    else if ('failure' in m) job.reject(new HttpError(m.failure.statusCode, m.failure.message, m.failure.errors));
    else job.reject(new Error(`sandbox task ${job.task} failed: ${m.error}`));
    // a child that used half its CPU allowance is replaced before it could hit it mid-task, and one
    // that kept two thirds of its memory limit resident (what a big picture leaves behind) before
    // the server's tree grows by it for good
    if (processCpuSeconds(child.pid) > this.options.cpuSeconds / 2 || processRssMb(child.pid) > (this.options.memoryMb * 2) / 3) this.end(child, 'retired');
    this.pump();
  }

  /** The child's job is over (answered or killed): counters, quota, timer. */
  private finish(child: Child): Job | null {
    const job = child.job;
    if (!job) return null;
    child.job = null;
    child.idleSince = Date.now();
    const counters = laneCounters(job.lane);
    counters.running--;
    this.settle(job);
    return job;
  }

  private release(job: Job): void {
    if (!job.client) return;
    const n = (this.perClient.get(job.client) ?? 1) - 1;
    if (n <= 0) this.perClient.delete(job.client);
    else this.perClient.set(job.client, n);
  }

  /** SIGKILLs a child (not asked: native code does not listen). */
  private kill(child: Child, reason: KillReason): void {
    const job = this.finish(child);
    this.end(child, reason);
    if (job) {
      laneCounters(job.lane).killed[reason]++;
      poolLog(reason === 'abandoned' ? 'info' : 'warn', { lane: job.lane, task: job.task, child: child.pid, reason, limitMs: job.timeoutMs }, 'sandbox task killed');
      job.reject(reason === 'abandoned' ? callerGone() : new HttpError(422, job.tooComplex));
    }
    this.pump();
  }

  private end(child: Child, why: NonNullable<Child['endedBy']>): void {
    child.endedBy ??= why;
    if (why !== 'closed') this.lostAt = Date.now();
    this.children.delete(child);
    try {
      child.proc.kill('SIGKILL');
    } catch {
      // already gone
    }
  }

  private onChildExit(child: Child, code: number | null, signal: NodeJS.Signals | null): void {
    const wasOurs = child.endedBy !== undefined;
    this.children.delete(child);
    if (wasOurs) return;
    // it died by itself: an OS limit (CPU: SIGXCPU, then SIGKILL at the hard limit; memory: an
    // allocation that failed aborts the process), or a crash
    const rlimit = signal === 'SIGXCPU' || signal === 'SIGKILL' || signal === 'SIGABRT' || code === 134 || code === 152;
    const reason: KillReason = rlimit ? 'rlimit' : 'crash';
    child.endedBy = reason;
    this.lostAt = Date.now();
    const job = this.finish(child);
    if (job) {
      laneCounters(job.lane).killed[reason]++;
      poolLog('warn', { lane: job.lane, task: job.task, child: child.pid, reason, code, signal, stderr: child.stderr.trim().slice(-300) || undefined }, 'sandbox task killed');
      job.reject(new HttpError(422, job.tooComplex));
    } else if (!this.closed) {
      poolLog('warn', { child: child.pid, code, signal, stderr: child.stderr.trim().slice(-300) || undefined }, 'sandbox process ended');
    }
    this.pump();
  }

  private scheduleTrim(): void {
    if (this.trimTimer) return;
    this.trimTimer = setInterval(() => {
      const now = Date.now();
      for (const c of this.children) {
        if (this.children.size <= this.options.warm) break;
        if (c.ready && !c.job && now - c.idleSince > IDLE_CHILD_MS) this.end(c, 'retired');
      }
      if (this.children.size <= this.options.warm) {
        clearInterval(this.trimTimer);
        this.trimTimer = undefined;
      }
    }, IDLE_CHILD_MS / 3);
    this.trimTimer.unref();
  }

  private killAll(): void {
    for (const c of this.children) this.end(c, 'closed');
  }

  /** Stops taking tasks, SIGKILLs every child now; waiting and running tasks answer 503. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.trimTimer);
    clearTimeout(this.refillTimer);
    process.off('exit', this.onExit);
    const shuttingDown = () => new HttpError(503, 'The server is shutting down. Please try again.', undefined, { 'retry-after': '5' });
    for (const c of [...this.children]) {
      const job = this.finish(c);
      this.end(c, 'closed');
      job?.reject(shuttingDown());
    }
    for (const lane of ['upload', 'ai'] as const) {
      for (const job of this.queues[lane].splice(0)) {
        laneCounters(lane).queued--;
        this.settle(job);
        job.reject(shuttingDown());
      }
    }
  }
}

/** What a task of a caller that went away rejects with (nobody reads it; the request is closed). */
function callerGone(): HttpError {
  return new HttpError(499, 'The request was closed before its answer.');
}

/** The sandbox's options from the settings (src/server/env.ts). */
export function sandboxOptionsFrom(c: {
  SANDBOX_POOL_SIZE: number;
  WORKER_TASK_TIMEOUT_MS: number;
  WORKER_QUEUE_SIZE: number;
  SANDBOX_CPU_SECONDS: number;
  SANDBOX_MEMORY_MB: number;
  WORKER_NICE: number;
  HEAVY_TASKS_PER_CLIENT: number;
}): Partial<ProcessPoolOptions> {
  return {
    size: c.SANDBOX_POOL_SIZE,
    // all kept loaded: the tree's memory under load is then idle + each child's growth (decision 32-02)
    warm: c.SANDBOX_POOL_SIZE,
    taskTimeoutMs: c.WORKER_TASK_TIMEOUT_MS,
    queueSize: c.WORKER_QUEUE_SIZE,
    cpuSeconds: c.SANDBOX_CPU_SECONDS,
    memoryMb: c.SANDBOX_MEMORY_MB,
    nice: c.WORKER_NICE,
    perClient: c.HEAVY_TASKS_PER_CLIENT,
  };
}

let options: Partial<ProcessPoolOptions> = {};
let pool: ProcessPool | null = null;

/** Sets the sandbox's options (start-up, from the settings); an existing pool is replaced on next use. */
export function configureProcessPool(next: Partial<ProcessPoolOptions>): void {
  const same = JSON.stringify({ ...DEFAULTS, ...options }) === JSON.stringify({ ...DEFAULTS, ...next });
  options = next;
  if (pool && !same) {
    const old = pool;
    pool = null;
    old.close();
  }
}

/** The process's sandbox pool (made on first use). */
export function processPool(): ProcessPool {
  pool ??= new ProcessPool(options);
  return pool;
}

/** Ends the sandbox pool: every child SIGKILLed now (shutdown). A later task starts a new pool. */
export function closeProcessPool(): void {
  const p = pool;
  pool = null;
  p?.close();
}
