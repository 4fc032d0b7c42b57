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
/** below this much JavaScript heap a full collection costs a few milliseconds */
const SMALL_HEAP_BYTES = 96 * 1024 * 1024;

let pending = 0;
/** native bytes made since the last full collection (minor ones free only what died young) */
let sinceFull = 0;
let scheduled = false;
let collections = 0;
let collector: ((full: boolean) => void) | null | undefined;

/** The engine's collector: `gc` exposed for this thread (the flag is process-wide, the function per context). */
function gcFunction(): ((full: boolean) => void) | null {
  if (collector !== undefined) return collector;
  const own = (globalThis as { gc?: (o?: { type: 'minor' | 'major' }) => void }).gc;
  let gc: unknown = typeof own === 'function' ? own : undefined;
  if (!gc) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as unknown;
    } catch {
      gc = undefined;
    }
  }
  collector = typeof gc === 'function' ? (full) => (gc as (o?: { type: 'minor' | 'major' }) => void)(full ? undefined : { type: 'minor' }) : null;
  return collector;
}

/**
 * On a thread with a small heap (a pool thread, a sandbox child), a full collection: a few ms. On a
 * big heap, a minor collection first: the objects that own the native memory (a tree, a pixmap) live
 * for one task, so they die young, and a scavenge frees them in well under a millisecond whatever
 * the size of the rest of the heap. A full collection there (100 ms or more: a test runner that
 * keeps every loaded module, a server with large caches) runs once HARD_BYTES were made since the
 * last one, for what lived long enough to be promoted.
 */
function collectNow(full = false): void {
  scheduled = false;
  if (pending === 0 && !full) return;
  sinceFull += pending;
  pending = 0;
  const gc = gcFunction();
  if (!gc) return;
  const major = full || sinceFull >= HARD_BYTES || v8.getHeapStatistics().used_heap_size < SMALL_HEAP_BYTES;
  if (major) sinceFull = 0;
  gc(major);
  collections++;
}

/** Records `bytes` of native memory made on this thread that only a collection frees. */
export function noteNativeBytes(bytes: number): void {
  if (!(bytes > 0)) return;
  pending += bytes;
  if (pending >= HARD_BYTES) {
    collectNow(true);
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
