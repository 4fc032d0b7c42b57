import { Worker } from 'node:worker_threads';

/** SIGKILLs the process `ms` after it starts, whatever its main thread is doing. */
const WATCHDOG = `const { workerData } = require('node:worker_threads');
setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.ms);`;

/**
 * The backstop of the 10 s shutdown promise (decision 32-09), on a thread of its own: a main
 * thread slowed by a busy machine or held by synchronous work cannot delay it. It does not keep
 * the process alive.
 */
export function startShutdownWatchdog(ms: number): void {
  new Worker(WATCHDOG, { eval: true, workerData: { pid: process.pid, ms } }).unref();
}
