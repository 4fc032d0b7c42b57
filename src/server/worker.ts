import fs from 'node:fs';
import os from 'node:os';
import { workerData, type MessagePort } from 'node:worker_threads';
import sharp from 'sharp';
import { HttpError } from '#server/http/http-errors';
import { PGLITE_THREAD_NAME } from '#server/db/pglite-thread-protocol';
import { SCAN_THREAD_NAME, VISITOR_THREAD_NAME, type TaskFailure, type TaskMessage, type WorkerThreadData } from '#server/infra/worker-pool';
import { proofSheetTask, renderCardTask, renderSvgTask } from '#server/features/templates/render.task';
import { reencodeOnThisThread, type ReencodeOptions } from '#server/infra/images/images';
import { applePassTask } from '#server/features/wallet/wallet.task';
import { jobTicketTask } from '#server/features/production/job-ticket.task';
import { jigSheetTask } from '#server/features/production/sheet.task';
import { printFilesTask, printProofTask, printSheetTask } from '#server/features/print/print.task';
import { qrPngTask } from '#server/features/profile/qrcode.task';
import { scanSvg, type SvgOutput } from '#server/infra/svg/svg-scan';
import { svgUtf8 } from '#server/infra/svg/svg-text';

/**
 * The worker-thread entry (issue 18, decision 18-01) of the `render` and `visitor` lanes: trusted
 * work only (our templates with validated data, QR codes and thumbnails of what we stored); bytes a
 * client sent are parsed in the sandbox processes (src/server/sandbox-worker.ts, decision 32-02).
 * `run` is the one function piscina calls: it
 * tells the main thread the task has started (its time limit counts from here, not from the queue),
 * then runs the named task. A task that refuses its input throws an HttpError; it crosses back as a
 * plain `{ __taskError }` answer (an Error loses its class and status on the way).
 * Bundled to dist/server/worker.js beside the server (scripts/build.mjs); from source it is loaded
 * through scripts/worker-dev.mjs.
 */

/**
 * Heavy work yields the CPU to the thread that answers requests: on Linux every thread of the
 * process but the main one and the embedded database's (decision 18-05) runs at nice +19 (WORKER_NICE) — this worker thread, and the threads heavy work runs
 * on without being this thread: libvips's workers and the libuv pool (sharp queues its pipelines
 * there, and those threads start libvips's, which inherit their priority), and V8's helper threads
 * (the workers' garbage collection). Measured under 4 renders without pause, those other threads
 * used about half a core at full priority when only this thread was lowered. Threads are started
 * lazily, so the pass runs again after each task (a directory listing and a few syscalls). Only
 * the priority is lowered, which needs no privilege; elsewhere nothing changes.
 */
const data = (workerData ?? {}) as Partial<WorkerThreadData>;
const WORKER_NICE = Math.min(19, Math.max(0, Number(data.nice ?? 19) || 0));
/**
 * The visitor lane's thread (decision 32-02) keeps the event loop's priority: a visitor waits for its
 * QR code PNG as for a page. It names itself so the other workers' passes leave it alone (the
 * libvips and libuv threads its work uses are still lowered: they are shared).
 */
if (data.visitor || data.scan) {
  try {
    fs.writeFileSync('/proc/thread-self/comm', data.scan ? SCAN_THREAD_NAME : VISITOR_THREAD_NAME);
  } catch {
    // not Linux
  }
}
const KEEP_PRIORITY = new Set([PGLITE_THREAD_NAME, VISITOR_THREAD_NAME, SCAN_THREAD_NAME]);

function lowerHelperThreadsPriority() {
  try {
    for (const name of fs.readdirSync('/proc/self/task')) {
      const tid = Number(name);
      if (tid === process.pid) continue; // the event loop's thread
      try {
        // the embedded database's thread serves requests too (decision 18-05)
        // and the visitor lane's thread answers visitors (decision 32-02)
        if (KEEP_PRIORITY.has(fs.readFileSync(`/proc/self/task/${name}/comm`, 'utf8').trim())) continue;
        if (os.getPriority(tid) < WORKER_NICE) os.setPriority(tid, WORKER_NICE);
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    // not Linux, or not allowed: the default priority
  }
}
lowerHelperThreadsPriority();
// one libvips thread per operation: a pool worker is one unit of heavy work, not several
sharp.concurrency(1);

const TASKS: Record<string, (arg: any) => unknown> = {
  renderSvg: renderSvgTask,
  renderCard: renderCardTask,
  proofSheet: proofSheetTask,
  // thumbnails of images we stored (already re-encoded at upload); an upload's own bytes are
  // re-encoded in the sandbox (src/server/sandbox-worker.ts, decision 32-02)
  reencodeImage: (arg: { input: Uint8Array; opts: ReencodeOptions }) => reencodeOnThisThread(arg.input, arg.opts),
  applePass: applePassTask,
  jobTicket: jobTicketTask,
  jigSheet: jigSheetTask,
  printFiles: printFilesTask,
  printProof: printProofTask,
  printSheet: printSheetTask,
  qrPng: qrPngTask,
  // the scan lane: the linear scan of an uploaded SVG (pure JavaScript, linear, at most 1 MB) before
  // the sandbox sanitizes it, so a refusal the scan decides never waits for a sandbox process
  // (decision 32-02); the sandbox runs it again. Past the cap the sandbox answers 413.
  // An upload arrives as its bytes and is decoded here, so the request thread never holds it as a
  // string (a megabyte string per upload filled its heap in a storm; decision 32-10).
  scanSvg: (arg: { text?: string; bytes?: Uint8Array; output?: SvgOutput; maxBytes: number }) => {
    if (arg.bytes && arg.bytes.byteLength > arg.maxBytes) return null;
    const text = arg.text ?? svgUtf8(arg.bytes!);
    if (arg.text !== undefined && Buffer.byteLength(text, 'utf8') > arg.maxBytes) return null;
    scanSvg(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, arg.output);
    return null;
  },
};

/**
 * This thread's kernel id (Linux; 0 elsewhere): the pool reads the thread's CPU time from it, so a
 * task's time limit counts the CPU it used, not the time it waited for one (worker-pool.ts).
 */
const THREAD_ID = (() => {
  try {
    return Number(fs.readlinkSync('/proc/thread-self').split('/').pop()) || 0;
  } catch {
    return 0;
  }
})();

export async function run(message: TaskMessage & { started: MessagePort }): Promise<unknown> {
  message.started.postMessage(THREAD_ID);
  message.started.close();
  const fn = TASKS[message.task];
  if (!fn) throw new Error(`unknown worker task ${message.task}`);
  try {
    return await fn(message.arg);
  } catch (e) {
    if (e instanceof HttpError) return { __taskError: { statusCode: e.statusCode, message: e.message, ...(e.errors ? { errors: e.errors } : {}) } } satisfies TaskFailure;
    throw e;
  } finally {
    lowerHelperThreadsPriority();
  }
}
