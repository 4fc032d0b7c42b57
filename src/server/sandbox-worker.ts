import sharp from 'sharp';
import { HttpError } from '#server/http/http-errors';
import type { FromChild, ToChild } from '#server/infra/process-pool';
import { cardLogoTask, rasterizeSvgTask, reencodeImageTask, sanitizeSvgTask } from '#server/infra/images/images.task';
import { pdfToImageTask, preparePdf } from '#server/infra/images/pdf.task';
import { removeBackgroundTask, sanitizedCopyTask, segmentBackgroundTask } from '#server/features/ai/engine/segment.task';
import { decodeQrTask } from '#server/features/designs/qr-scan.task';
import { readMembersCsvTask } from '#server/features/team/csv-import.task';
import { renderCardTask } from '#server/features/templates/render.task';

/**
 * The sandbox child's entry (issue 32, decision 32-02): work on untrusted bytes runs here, in a
 * process the server SIGKILLs at the task's deadline, under prlimit's CPU and memory limits
 * (src/server/infra/process-pool.ts). One task at a time; the answer goes back over the IPC
 * channel. A task that refuses its input throws an HttpError; it crosses back as `failure`.
 * Bundled to dist/server/sandbox-worker.js beside the server (scripts/build.mjs); from source it is
 * loaded through scripts/sandbox-dev.mjs.
 */

// one libvips thread per operation: a child is one unit of heavy work
sharp.concurrency(1);
// decoded images are not kept between tasks (each upload is new)
sharp.cache(false);

const TASKS: Record<string, (arg: any) => unknown> = {
  sanitizeSvg: sanitizeSvgTask,
  rasterizeSvg: rasterizeSvgTask,
  reencodeImage: reencodeImageTask,
  // a PDF logo or artwork: its first page at 300 DPI (decision 37-05)
  pdfToImage: pdfToImageTask,
  cardLogo: cardLogoTask,
  segmentBackground: segmentBackgroundTask,
  removeBackground: removeBackgroundTask,
  aiSanitizedCopy: sanitizedCopyTask,
  decodeQr: decodeQrTask,
  readMembersCsv: readMembersCsvTask,
  // a template file staff just uploaded, rendered with sample data before it may go live
  renderCandidateCard: renderCardTask,
};

/**
 * Code a task loads on its first use in a child (pdf.js: some 0.3 s of CPU). It is loaded before the
 * input is read and its time is reported, so the pool does not count it against the file's deadline.
 */
const PREPARE: Record<string, () => Promise<unknown>> = {
  pdfToImage: preparePdf,
};
const prepared = new Set<string>();

function send(m: FromChild): void {
  process.send?.(m);
}

process.on('message', (m: ToChild) => {
  void (async () => {
    const fn = TASKS[m.task];
    try {
      if (!fn) throw new Error(`unknown sandbox task ${m.task}`);
      const prepare = PREPARE[m.task];
      if (prepare && !prepared.has(m.task)) {
        const started = performance.now();
        await prepare();
        prepared.add(m.task);
        send({ id: m.id, prepared: Math.round(performance.now() - started) });
      }
      send({ id: m.id, ok: await fn(m.arg) });
    } catch (e) {
      if (e instanceof HttpError) send({ id: m.id, failure: { statusCode: e.statusCode, message: e.message, ...(e.errors ? { errors: e.errors } : {}) } });
      else send({ id: m.id, error: String((e as Error)?.message ?? e) });
    }
  })();
});
// the server went away (even by SIGKILL): nothing more to do here
process.on('disconnect', () => process.exit(0));
send({ ready: true });
