import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { ProductionSheetLayout } from '#shared/schemas/production';
import type { AppContext } from '#server/context';
import { csvRow } from '#server/http/csv';
import { cardSideImages } from '#server/features/designs/reads';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import { renderPrintFiles } from '#server/features/print/public-api';
import type { SheetSlot, SheetTaskInput } from './sheet.task';
import { exportRows, jobTicketData, nfcCsvLines, orderNfcPayloadsOf, renderJobTicket } from './production.service';

/**
 * Renders (job tickets, print files) queued ahead of the one being written, across orders: the
 * render thread always has the next one when it finishes. One, not more: the pool bounds a task's
 * wait in its queue (the task time limit, then 503), and on a busy machine a third render in the
 * queue of one thread waited past it (15 of 100 cards lost in a run at load 48).
 */
const RENDER_AHEAD = 1;
/** Cards one jig sheet PDF lays out (their side images travel to the worker together). */
const SHEET_MAX_CARDS = 100;

/** The jig sheet of these cards (drawn in the worker pool from their stored side images). */
async function renderJigSheet(ctx: AppContext, cardIds: number[], layout: ProductionSheetLayout): Promise<Buffer> {
  const rows = await cardSideImages(ctx.db, cardIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const image = async (url: string | null) => (url?.startsWith('/files/') ? ((await ctx.storage.get(url.slice('/files/'.length)))?.data ?? null) : null);
  const slots: SheetSlot[] = [];
  for (const id of cardIds) {
    const c = byId.get(id);
    slots.push({ label: `Order #${c?.orderId ?? '?'}, card ${id}`, front: await image(c?.front ?? null), back: await image(c?.back ?? null) });
  }
  const arg: SheetTaskInput = { ...layout, slots };
  return asBuffer(await runTask<Uint8Array>('render', 'jigSheet', arg, { timeoutMs: 30_000 }));
}

export interface ZipOptions {
  origin: string;
  sheet?: ProductionSheetLayout;
  /** the client went away: stop rendering */
  signal: AbortSignal;
  onError(err: unknown): void;
}

/**
 * One ZIP of the orders' print files and job tickets, streamed: entries are rendered one card at a
 * time (a few ahead) and each waits until the archive has taken the previous one, which waits for
 * the client to read (back-pressure), so memory stays flat however many cards it holds. PDFs are
 * stored as they are (already compressed); SVG, CSV and text are deflated by zlib (libuv threads).
 * Layout: `order-{id}/job-ticket-order-{id}.pdf`, `order-{id}/nfc-order-{id}.csv`, the cards'
 * `{fileBase}.pdf` and `.svg`, or the order form's artwork; `sheet.pdf` (the jig sheet, when
 * asked); `problems.txt` when something could not be made.
 */
export async function productionZip(ctx: AppContext, orderIds: number[], opts: ZipOptions): Promise<Readable> {
  const items = await exportRows(ctx, orderIds); // unknown ids: 400 before anything is sent
  // loaded on first use: a server that never exports a ZIP does not carry archiver (idle RSS)
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  archive.on('error', (err) => out.destroy(err));
  archive.pipe(out);

  const date = new Date();
  const problems: string[] = [];
  // each append resolves when the archive has written that entry (its 'entry' event, in order)
  const waiting: Array<() => void> = [];
  archive.on('entry', () => waiting.shift()?.());
  // the client went away: the archive and its stream end here, and whatever waits on them is released
  opts.signal.addEventListener('abort', () => {
    archive.abort();
    out.destroy();
    for (const release of waiting.splice(0)) release();
  });
  const add = async (data: Buffer | string, name: string, store: boolean) => {
    // the client reads slower than we make files: wait for it (a gone client ends the wait)
    if (out.writableNeedDrain) await once(out, 'drain', { signal: opts.signal });
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      archive.append(data, { name, date, store });
    });
  };

  // every render of the ZIP in writing order: each order's job ticket, then its cards' print files.
  // RENDER_AHEAD renders are under way ahead of the one being written, across orders: the render
  // thread never waits for the next order's database reads, ticket data or the archive.
  type Rendered = Buffer | Awaited<ReturnType<typeof renderPrintFiles>> | Error;
  const jobs = items.flatMap(({ row, order }) => [
    async () => renderJobTicket(jobTicketData(row, order, opts.origin)),
    ...(row.card_ids ?? []).map((id) => async () => renderPrintFiles(ctx, Number(id), opts.origin)),
  ]);
  const started: Array<Promise<Rendered> | undefined> = [];
  let next = 0;
  const rendered = (i: number): Promise<Rendered> => {
    for (; next < Math.min(jobs.length, i + 1 + RENDER_AHEAD) && !opts.signal.aborted; next++) {
      started[next] = jobs[next]().catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    }
    const p = started[i] ?? Promise.resolve(new Error('aborted'));
    started[i] = undefined; // written once: its bytes go with the entry
    return p;
  };

  const produce = async () => {
    let job = 0;
    for (const { row } of items) {
      if (opts.signal.aborted) return;
      const dir = `order-${row.id}`;
      const ticket = await rendered(job++);
      if (opts.signal.aborted) return;
      if (ticket instanceof Error) problems.push(`Order #${row.id}: the job ticket could not be made (${ticket.message})`);
      else await add(ticket as Buffer, `${dir}/job-ticket-order-${row.id}.pdf`, true);
      const nfc = orderNfcPayloadsOf(row, opts.origin);
      await add(nfcCsvLines(nfc).map(csvRow).join(''), `${dir}/nfc-order-${row.id}.csv`, false);

      const cardIds = (row.card_ids ?? []).map(Number);
      for (let i = 0; i < cardIds.length; i++) {
        const files = (await rendered(job++)) as Awaited<ReturnType<typeof renderPrintFiles>> | Error;
        if (opts.signal.aborted) return;
        if (files instanceof Error) {
          problems.push(`Order #${row.id}, card ${cardIds[i]}: the print files could not be made (${files.message})`);
          continue;
        }
        await add(files.pdf, `${dir}/${files.fileBase}.pdf`, true);
        await add(files.svg, `${dir}/${files.fileBase}.svg`, false);
        for (const w of files.warnings) problems.push(`Order #${row.id}, card ${cardIds[i]}: ${w}`);
      }
      if (cardIds.length === 0) {
        const artwork = row.artwork_url?.startsWith('/files/') ? await ctx.storage.get(row.artwork_url.slice('/files/'.length)) : null;
        if (artwork) {
          const ext = row.artwork_url!.split('.').pop();
          await add(artwork.data, `${dir}/artwork-order-${row.id}.${ext}`, ext !== 'svg');
        } else {
          problems.push(`Order #${row.id}: no designed card and no artwork: nothing to print but the job ticket`);
        }
      }
    }
    if (opts.sheet && !opts.signal.aborted) {
      const cardIds = items.flatMap(({ row }) => (row.card_ids ?? []).map(Number));
      if (cardIds.length > SHEET_MAX_CARDS) problems.push(`The jig sheet holds the first ${SHEET_MAX_CARDS} of ${cardIds.length} cards: download the rest in another ZIP`);
      if (cardIds.length === 0) problems.push('No designed card among these orders: no jig sheet');
      else {
        try {
          await add(await renderJigSheet(ctx, cardIds.slice(0, SHEET_MAX_CARDS), opts.sheet), 'sheet.pdf', true);
        } catch (err) {
          problems.push(`The jig sheet could not be made (${(err as Error).message})`);
        }
      }
    }
    if (problems.length) await add(problems.join('\n') + '\n', 'problems.txt', false);
    if (!opts.signal.aborted) await archive.finalize();
  };
  produce().catch((err) => {
    if (opts.signal.aborted) return;
    opts.onError(err);
    archive.abort();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}
