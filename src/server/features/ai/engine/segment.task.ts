import { HttpError } from '#server/http/http-errors';
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
