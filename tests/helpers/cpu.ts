/**
 * CPU time of a piece of work in the test thread, for tests that prove a time class (linear, not
 * quadratic), never a speed bar (those are the bench's). This thread's CPU where Node.js can say it
 * (22 and later): the process's CPU also counts other threads of the test process (a collection's
 * helpers, a pool an earlier file left running), which once failed a linear run on a busy machine.
 * Node.js 20 has only the process's.
 */
type CpuClock = (prev?: NodeJS.CpuUsage) => NodeJS.CpuUsage;
const threadClock = (process as { threadCpuUsage?: CpuClock }).threadCpuUsage?.bind(process);
const clock: CpuClock = threadClock ?? ((prev) => process.cpuUsage(prev));

/** CPU ms of one run. */
export function cpuMs(run: () => void): number {
  const before = clock();
  run();
  const d = clock(before);
  return (d.user + d.system) / 1000;
}

/** CPU ms of the fastest of `times` runs. */
export function bestCpuMs(run: () => void, times = 3): number {
  let best = Infinity;
  for (let k = 0; k < times; k++) best = Math.min(best, cpuMs(run));
  return best;
}
