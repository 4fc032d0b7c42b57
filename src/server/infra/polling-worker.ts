import type { FastifyBaseLogger } from 'fastify';

/** What a background queue worker offers the app (the e-mail outbox, webhook delivery). */
export interface PollingWorker {
  /** process what is due now (also called on a timer); resolves with how many items succeeded */
  runOnce(): Promise<number>;
  /** ask for a run soon (after something was queued) */
  kick(): void;
  stop(): Promise<void>;
}

/** The loop under a polling worker: one run at a time, then the next after `intervalMs`. */
export interface PollingLoop {
  runOnce(): Promise<number>;
  /** run after `ms` (replacing the timer already set), then every `intervalMs` */
  schedule(ms: number): void;
  readonly stopped: boolean;
  /** no more runs; waits for the one in progress */
  stop(): Promise<void>;
}

/**
 * One polling loop for the queue workers: `runOnce` never runs two passes at once (a caller
 * arriving during a pass waits for it and then runs another), a failed pass is logged and counts
 * 0, and the timer never keeps the process alive.
 */
export function createPollingLoop(opts: {
  /** one pass over the queue; resolves with how many items succeeded */
  pass: () => Promise<number>;
  log: FastifyBaseLogger;
  /** logged (with the error) when a pass throws */
  failMessage: string;
  intervalMs: number;
  /** called when the timer fires, before its run */
  onTick?: () => void;
}): PollingLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  let stopped = false;

  function runOnce(): Promise<number> {
    if (running) return running.then(() => runOnce());
    running = opts
      .pass()
      .catch((err) => {
        opts.log.warn({ err: err?.message }, opts.failMessage);
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  function schedule(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      opts.onTick?.();
      await runOnce();
      schedule(opts.intervalMs);
    }, ms);
    timer.unref();
  }

  return {
    runOnce,
    schedule,
    get stopped() {
      return stopped;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (running) await running.catch(() => {});
    },
  };
}
