import { fillTemplateDetailed } from '#shared/templates/fill';
import { proofSheetOnThisThread, renderSvgOnThisThread, type FilledCardInput, type RenderOptions } from './card-render';

/** Card rendering tasks, run on the worker pool (src/server/worker.ts). */

export function renderSvgTask(arg: { svg: string; opts: RenderOptions }): Promise<Buffer> {
  return renderSvgOnThisThread(arg.svg, arg.opts);
}

export function proofSheetTask(arg: { front: Uint8Array; back: Uint8Array; gap: number }): Promise<Buffer> {
  return proofSheetOnThisThread(arg.front, arg.back, arg.gap);
}

/** Fills both sides of a template and renders them: the fill (text fitting, QR code) is CPU work too. */
export async function renderCardTask(arg: FilledCardInput) {
  const opts = { qrUrl: arg.qrUrl, logoHref: arg.logoHref };
  const front = fillTemplateDetailed(arg.front, arg.data, opts);
  const back = fillTemplateDetailed(arg.back, arg.data, opts);
  const frontImg = await renderSvgOnThisThread(front.svg, arg.render);
  const backImg = await renderSvgOnThisThread(back.svg, arg.render);
  return { front: frontImg, back: backImg, frontSvg: front.svg, backSvg: back.svg, truncated: [...new Set([...front.truncated, ...back.truncated])] };
}
