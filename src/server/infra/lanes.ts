import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';

/**
 * Lanes of heavy work (issue 32, decision 32-02). Each lane has its own bounded queue and its own
 * capacity, so what a visitor waits for never queues behind uploads or renders:
 *
 * - `visitor`: a QR code PNG, a contact-file photo, a public page's thumbnail. One worker thread of
 *   its own, at the priority of the thread that answers requests (src/server/infra/worker-pool.ts).
 * - `render`: our own templates with validated data (card renders, proofs, print PDFs, job tickets,
 *   wallet passes are visitor work). Worker threads.
 * - `scan`: the linear SVG scan (src/server/infra/svg/svg-scan.ts) of an upload, before the sandbox:
 *   one worker thread of its own, so a refusal the scan decides never waits for a sandbox process.
 * - `upload`: anything that parses or draws untrusted bytes (SVG sanitizing and rasterising,
 *   image re-encoding of uploads, logos, QR decoding of uploaded artwork). Child processes we can
 *   SIGKILL, under OS limits (src/server/infra/process-pool.ts).
 * - `ai`: background segmentation of a user's image. The same child processes, its own queue, and
 *   never all of them.
 *
 * This module holds the per-lane counters `/metrics` reads and the request scope that lets a pool
 * know which client (account or address) a task is for.
 */
export type Lane = 'visitor' | 'render' | 'scan' | 'upload' | 'ai';
export const LANES: readonly Lane[] = ['visitor', 'render', 'scan', 'upload', 'ai'];

/** `abandoned`: its caller went away (the request's connection closed) before the answer */
export type KillReason = 'deadline' | 'rlimit' | 'crash' | 'abandoned';
export const KILL_REASONS: readonly KillReason[] = ['deadline', 'rlimit', 'crash', 'abandoned'];

export interface LaneCounters {
  /** tasks waiting for a thread or process */
  queued: number;
  /** tasks running now */
  running: number;
  /** refused with 429 (client quota) or 503 (queue full, shutting down) */
  rejected: { '429': number; '503': number };
  /** tasks ended by force: past the deadline, at an OS limit, or their process died */
  killed: Record<KillReason, number>;
}

const counters = new Map<Lane, LaneCounters>();

export function laneCounters(lane: Lane): LaneCounters {
  let c = counters.get(lane);
  if (!c) {
    c = { queued: 0, running: 0, rejected: { '429': 0, '503': 0 }, killed: { deadline: 0, rlimit: 0, crash: 0, abandoned: 0 } };
    counters.set(lane, c);
  }
  return c;
}

/**
 * A signal aborted when `res` closes before its answer was sent (the caller went away), made on
 * first use: requests that start no task pay nothing.
 */
export function closedBeforeAnswer(res: ServerResponse): () => AbortSignal {
  let controller: AbortController | undefined;
  return () => {
    if (!controller) {
      const c = (controller = new AbortController());
      if (res.destroyed && !res.writableFinished) c.abort();
      else res.once('close', () => res.writableFinished || c.abort());
    }
    return controller.signal;
  };
}

/** What a pool may know of the request a task is for. */
export interface RequestScope {
  /** `user:<id>` for a signed-in account, `ip:<address>` otherwise (read when a task starts) */
  client(): string;
  /** aborted when the request's connection closes before its answer was sent */
  signal?(): AbortSignal;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (the rest of a request's hooks and handler) with `s` as its scope. */
export function runInRequestScope(s: RequestScope, fn: () => void): void {
  scope.run(s, fn);
}

/** The client the current request is for, if a request is being served. */
export function currentClient(): string | undefined {
  return scope.getStore()?.client();
}

/** Aborted when the current request's caller went away (undefined outside a request). */
export function currentRequestSignal(): AbortSignal | undefined {
  return scope.getStore()?.signal?.();
}

/** Events a pool reports (killed tasks, crashed processes); the app logs them (src/server/app.ts). */
export type PoolLogger = (level: 'warn' | 'error' | 'info', fields: Record<string, unknown>, msg: string) => void;
let logger: PoolLogger = () => undefined;
export function setPoolLogger(l: PoolLogger): void {
  logger = l;
}
export function poolLog(level: 'warn' | 'error' | 'info', fields: Record<string, unknown>, msg: string): void {
  logger(level, fields, msg);
}
