import { HttpError } from '#server/http/http-errors';
import { decodeRgba, encodePng, sanitizedCopy } from '#server/features/ai/image-codec';
import { segmentBackground, SegmentError, type SegmentResult } from './segment-background';

/** Background removal on the worker pool (src/server/worker.ts): a refusal becomes a 422. */
export async function segmentBackgroundTask(arg: { rgba: Uint8Array; width: number; height: number }): Promise<SegmentResult> {
  try {
    return await segmentBackground(arg.rgba, arg.width, arg.height);
  } catch (e) {
    if (e instanceof SegmentError) throw new HttpError(422, e.message);
    throw e;
  }
}

/**
 * Background removal of a user's image, all of it in the sandbox (issue 32, decision 32-02): the
 * decode (sharp/libvips on untrusted bytes), the segmentation and the PNG encode. The main process
 * only read the header (inspectAiImage). Refusals: 413/415 from the decode, 422 from segmentation.
 */
export async function removeBackgroundTask(arg: { data: Uint8Array; maxSide: number }): Promise<{ png: Buffer; width: number; height: number }> {
  const { rgba, width, height } = await decodeRgba(Buffer.from(arg.data.buffer, arg.data.byteOffset, arg.data.byteLength), arg.maxSide);
  const seg = await segmentBackgroundTask({ rgba, width, height });
  return { png: await encodePng(seg.rgba, width, height), width, height };
}

/** A clean copy of a user's image for an outside service (upright, no metadata), in the sandbox. */
export function sanitizedCopyTask(arg: { data: Uint8Array; maxSide: number }) {
  return sanitizedCopy(Buffer.from(arg.data.buffer, arg.data.byteOffset, arg.data.byteLength), arg.maxSide);
}
