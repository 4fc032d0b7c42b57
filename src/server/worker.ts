import fs from 'node:fs';
import os from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { HttpError } from '#server/http/http-errors';
import type { TaskFailure, TaskMessage } from '#server/infra/worker-pool';
import { proofSheetTask, renderCardTask, renderSvgTask } from '#server/features/templates/render.task';
import { cardLogoTask, rasterizeSvgTask, reencodeImageTask, sanitizeSvgTask } from '#server/features/uploads/uploads.task';
import { segmentBackgroundTask } from '#server/features/ai/engine/segment.task';

/**
 * The worker-pool entry (issue 18, decision 18-01). `run` is the one function piscina calls: it
 * tells the main thread the task has started (its time limit counts from here, not from the queue),
 * then runs the named task. A task that refuses its input throws an HttpError; it crosses back as a
 * plain `{ __taskError }` answer (an Error loses its class and status on the way).
 * Bundled to dist/server/worker.js beside the server (scripts/build.mjs); from source it is loaded
 * through scripts/worker-dev.mjs.
 */

/**
 * Heavy work yields the CPU to the thread that answers requests: on Linux this worker thread (and
 * the threads it starts, such as libvips's, which inherit it) runs at nice +10. Only the thread's
 * own priority is lowered, which needs no privilege; elsewhere nothing changes.
 */
const WORKER_NICE = 10;

function lowerThreadPriority() {
  try {
    const tid = /\/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))?.[1];
    if (tid) os.setPriority(Number(tid), Math.max(os.getPriority(Number(tid)), WORKER_NICE));
  } catch {
    // not Linux, or not allowed: the default priority
  }
}
lowerThreadPriority();

const TASKS: Record<string, (arg: any) => unknown> = {
  renderSvg: renderSvgTask,
  renderCard: renderCardTask,
  proofSheet: proofSheetTask,
  sanitizeSvg: sanitizeSvgTask,
  rasterizeSvg: rasterizeSvgTask,
  reencodeImage: reencodeImageTask,
  cardLogo: cardLogoTask,
  segmentBackground: segmentBackgroundTask,
};

export async function run(message: TaskMessage & { started: MessagePort }): Promise<unknown> {
  message.started.postMessage(1);
  message.started.close();
  const fn = TASKS[message.task];
  if (!fn) throw new Error(`unknown worker task ${message.task}`);
  try {
    return await fn(message.arg);
  } catch (e) {
    if (e instanceof HttpError) return { __taskError: { statusCode: e.statusCode, message: e.message, ...(e.errors ? { errors: e.errors } : {}) } } satisfies TaskFailure;
    throw e;
  }
}
