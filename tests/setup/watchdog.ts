/**
 * A watchdog for each test process (decision 45-01). A CI run once spent 48 minutes in one Vitest
 * worker whose heap grew to its 4 GB limit; the worker died of it without a word on which file or
 * test it was in, and the run waited on it. Test timeouts cannot help there: they are timers on the
 * same thread, which a busy loop or a heap in garbage-collection thrash never lets run.
 *
 * So a small worker thread watches the test thread from outside:
 * - the test thread writes a heartbeat (time and heap used) into shared memory every second;
 * - when the heartbeat is older than STALL_MS (the thread is stuck in synchronous work) or the heap
 *   passes HEAP_SHARE of its limit, the watchdog pauses the test thread through the inspector (which
 *   interrupts even a busy loop), prints the file, the test, the reason and the JavaScript stack, and
 *   (for the heap) where the live memory was allocated, sampled since the heap passed WARN_SHARE;
 * - then it ends the process, so the run fails within minutes and says why, instead of waiting.
 *
 * Installed once per process (files share their worker: isolate is false); every file's tests post
 * their name so the report says where the thread was.
 */
import { Worker } from 'node:worker_threads';
import v8 from 'node:v8';

const STALL_MS = 180_000;
const HEAP_SHARE = 0.75;
const WARN_SHARE = 0.4;

interface Watchdog {
  worker: Worker;
}

const KEY = Symbol.for('metal-cards.test-watchdog');
const g = globalThis as unknown as Record<symbol, Watchdog | undefined>;

// The watchdog's own code, in plain JavaScript (a worker evaluates it as a script).
const WATCHDOG_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const inspector = require('node:inspector');
const fs = require('node:fs');
const beat = new Float64Array(workerData.shared);
const { stallMs, heapLimit, heapWarn } = workerData;
let where = '(before its first test)';
parentPort.on('message', (m) => { where = m; });
const say = (text) => { try { fs.writeSync(2, text + '\\n'); } catch {} };
const mb = (n) => Math.round(n / 1048576) + ' MB';
let session = null;
const post = (method, params) => new Promise((resolve, reject) => {
  session.post(method, params || {}, (err, res) => (err ? reject(err) : resolve(res)));
});
function connect() {
  if (session) return;
  session = new inspector.Session();
  session.connectToMainThread();
}
let sampling = false;
let ended = false;
async function end(reason) {
  ended = true;
  say('\\n[test watchdog] process ' + process.pid + ': ' + reason + '\\n[test watchdog] it was in ' + where);
  const giveUp = setTimeout(() => { say('[test watchdog] no stack could be had; ending the process'); process.kill(process.pid, 'SIGKILL'); }, 30000);
  try {
    connect();
    if (sampling) {
      const { profile } = await post('HeapProfiler.getSamplingProfile');
      const sites = new Map();
      const name = (f) => (f.functionName || '(anonymous)') + ' ' + (f.url.replace(/^.*\\/(node_modules|src|tests)\\//, '$1/') || '(native)') + ':' + (f.lineNumber + 1);
      // each sample under its allocating frame and the two frames that called it
      const walk = (node, callers) => {
        const frames = [name(node.callFrame), ...callers].slice(0, 3);
        if (node.selfSize) {
          const key = frames.join(' < ');
          sites.set(key, (sites.get(key) || 0) + node.selfSize);
        }
        for (const c of node.children) walk(c, frames);
      };
      walk(profile.head, []);
      const top = [...sites].sort((a, b) => b[1] - a[1]).slice(0, 12);
      say('[test watchdog] live memory by where it was allocated (sampled since the heap passed ' + mb(heapWarn) + '):');
      for (const [k, v] of top) say('  ' + mb(v).padStart(8) + '  ' + k);
    }
    const urls = new Map();
    session.on('Debugger.scriptParsed', (m) => urls.set(m.params.scriptId, m.params.url));
    const paused = new Promise((resolve) => session.once('Debugger.paused', (m) => resolve(m.params)));
    await post('Debugger.enable');
    await post('Debugger.pause');
    const params = await paused;
    say('[test watchdog] the test thread was running:');
    for (const f of params.callFrames.slice(0, 20)) {
      say('  at ' + (f.functionName || '(anonymous)') + ' ' + (f.url || urls.get(f.location.scriptId) || '?').replace(/^.*\\/(node_modules|src|tests)\\//, '$1/') + ':' + (f.location.lineNumber + 1));
    }
  } catch (err) {
    say('[test watchdog] no stack: ' + String(err && err.message || err));
  }
  clearTimeout(giveUp);
  say('[test watchdog] ending the process');
  process.kill(process.pid, 'SIGKILL');
}
setInterval(() => {
  if (ended) return;
  const age = Date.now() - beat[0];
  const heap = beat[1];
  if (age > stallMs) return void end('the test thread has not run for ' + Math.round(age / 1000) + ' s (heap ' + mb(heap) + ')');
  if (heap > heapLimit) return void end('the heap holds ' + mb(heap) + ' (its limit is ' + mb(workerData.heapMax) + ')');
  if (heap > heapWarn && !sampling) {
    sampling = true;
    say('[test watchdog] process ' + process.pid + ': the heap holds ' + mb(heap) + ', in ' + where + '; sampling where memory is allocated');
    try { connect(); post('HeapProfiler.startSampling', { samplingInterval: 65536 }).catch(() => {}); } catch {}
  }
}, 2000);
`;

/** Starts the watchdog for this process (idempotent); answers the function that names where the tests are. */
export function installWatchdog(opts: { stallMs?: number; heapShare?: number; warnShare?: number } = {}): (where: string) => void {
  const existing = g[KEY];
  if (existing) return (where) => existing.worker.postMessage(where);
  const shared = new SharedArrayBuffer(16);
  const beat = new Float64Array(shared);
  const write = () => {
    beat[0] = Date.now();
    beat[1] = process.memoryUsage().heapUsed;
  };
  write();
  setInterval(write, 1000).unref();
  const heapMax = v8.getHeapStatistics().heap_size_limit;
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { shared, stallMs: opts.stallMs ?? STALL_MS, heapMax, heapLimit: heapMax * (opts.heapShare ?? HEAP_SHARE), heapWarn: heapMax * (opts.warnShare ?? WARN_SHARE) },
  });
  worker.unref();
  g[KEY] = { worker };
  return (where) => worker.postMessage(where);
}
