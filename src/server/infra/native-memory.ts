import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Native memory the JavaScript engine cannot see (decision 32-11). resvg keeps each parsed SVG tree,
 * its font database and each rendered pixmap in native memory owned by a small JavaScript object,
 * and frees it only when that object is garbage-collected. V8 decides when to collect from the
 * JavaScript heap alone, so a worker thread whose heap barely grows never collects: 2,000 QR code
 * PNGs left 818 MB of pixmaps behind on the visitor lane's thread (300 x 300 x 4 bytes each), and a
 * hostile-content storm grew the server by hundreds of MB with it.
 *
 * Code that makes such objects says how many native bytes it made (`noteNativeBytes`); past
 * SOFT_BYTES since the last collection, a collection runs as soon as the current task has returned
 * (setImmediate: the answer is not delayed); past HARD_BYTES (one long task making many), it runs
 * at once. The thread's memory is then bounded by the budget, whatever the traffic.
 */
const SOFT_BYTES = 32 * 1024 * 1024;
const HARD_BYTES = 128 * 1024 * 1024;

let pending = 0;
let scheduled = false;
let collections = 0;
let collector: (() => void) | null | undefined;

/** The engine's collector: `gc` exposed for this thread (the flag is process-wide, the function per context). */
function gcFunction(): (() => void) | null {
  if (collector !== undefined) return collector;
  const own = (globalThis as { gc?: () => void }).gc;
  if (typeof own === 'function') return (collector = () => own());
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    collector = typeof gc === 'function' ? () => (gc as () => void)() : null;
  } catch {
    collector = null;
  }
  return collector;
}

function collectNow(): void {
  scheduled = false;
  if (pending === 0) return;
  pending = 0;
  const gc = gcFunction();
  if (!gc) return;
  gc();
  collections++;
}

/** Records `bytes` of native memory made on this thread that only a collection frees. */
export function noteNativeBytes(bytes: number): void {
  if (!(bytes > 0)) return;
  pending += bytes;
  if (pending >= HARD_BYTES) {
    collectNow();
    return;
  }
  if (pending >= SOFT_BYTES && !scheduled) {
    scheduled = true;
    setImmediate(collectNow).unref?.();
  }
}

/** Collections this thread ran for native memory (tests, metrics). */
export function nativeCollections(): number {
  return collections;
}

export const NATIVE_MEMORY_BUDGET = { softBytes: SOFT_BYTES, hardBytes: HARD_BYTES };
