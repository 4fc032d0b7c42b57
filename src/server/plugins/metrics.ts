import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { outboxBacklog } from '#server/infra/mail/outbox';
import { forbidden, unauthorized } from '#server/http/http-errors';
import { closedBeforeAnswer, KILL_REASONS, LANES, laneCounters, runInRequestScope } from '#server/infra/lanes';
import { processPool } from '#server/infra/process-pool';
import { clientKey } from '#server/infra/rate-limit';

// process-wide metrics (CPU, memory, event-loop lag, GC) are collected once per process, however
// many apps it builds (tests build dozens); each app has its own registry for everything else
let processRegistry: Registry | null = null;
/**
 * Sampling interval of the event-loop delay histogram (Node's monitorEventLoopDelay, through
 * prom-client). Its recorded values are the time between samples, so they include this interval:
 * an idle loop reads about 10 ms; the delay itself is the value minus this (bench/isolation.ts).
 */
export const EVENT_LOOP_RESOLUTION_MS = 10;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_RESOLUTION_MS });
  }
  return processRegistry;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Loopback callers may read the metrics unless the request came through a proxy (a proxy on the
 * same host would otherwise make every visitor look local); anyone else needs
 * `Authorization: Bearer $METRICS_TOKEN`.
 */
export function metricsAllowed(req: FastifyRequest, token: string | undefined): 'ok' | 'unauthorized' | 'forbidden' {
  const auth = req.headers.authorization;
  if (token && typeof auth === 'string' && auth.startsWith('Bearer ')) {
    const given = Buffer.from(auth.slice(7).trim());
    const want = Buffer.from(token);
    if (given.length === want.length && crypto.timingSafeEqual(given, want)) return 'ok';
    return 'unauthorized';
  }
  const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined || req.headers['x-real-ip'] !== undefined;
  if (!forwarded && LOOPBACK.has(req.socket.remoteAddress ?? '')) return 'ok';
  return token ? 'unauthorized' : 'forbidden';
}

/**
 * `GET /metrics` in Prometheus text format: request rate and latency by route, outbox backlog,
 * visit-buffer size, database pool, process figures. Registered before the feature routes so
 * its hooks see every request.
 */
export function registerMetrics(app: FastifyInstance, opts: { pendingVisitEvents: () => number }) {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern',
    labelNames,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  new Gauge({
    name: 'outbox_backlog',
    help: 'E-mails waiting in the outbox (pending); -1 when the database does not answer',
    registers: [registry],
    async collect() {
      try {
        this.set(await outboxBacklog(app.ctx.db));
      } catch {
        this.set(-1);
      }
    },
  });
  new Gauge({
    name: 'visit_buffer_events',
    help: 'Public-page events (visits, clicks, saves) buffered in memory, not yet written',
    registers: [registry],
    collect() {
      this.set(opts.pendingVisitEvents());
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (embedded database: one in-process connection)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { database } = app.ctx;
      if (database.kind === 'postgres') {
        const pool = database.raw as { totalCount: number; idleCount: number; waitingCount: number };
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      } else {
        this.set({ state: 'total' }, 1);
      }
    },
  });
  new Gauge({
    name: 'app_info',
    help: 'Which backends this instance uses',
    labelNames: ['database', 'storage', 'rate_limiter'],
    registers: [registry],
    collect() {
      const { database, storage, rateLimiter } = app.ctx;
      this.set({ database: database.kind, storage: storage.kind, rate_limiter: (rateLimiter as { kind?: string }).kind ?? 'database' }, 1);
    },
  });

  registerLaneMetrics(registry);
  const stalls = new Counter({ name: 'event_loop_stalls_total', help: `Event-loop stalls longer than ${STALL_MS} ms (each one is logged with the requests in flight)`, registers: [registry] });

  // the request's scope: the pools read which client a heavy task is for (per-client quota,
  // decision 32-02); the client is read when a task starts, after the session hook ran
  app.addHook('onRequest', (req, reply, done) => {
    runInRequestScope({ client: () => (req.user ? `user:${req.user.id}` : `ip:${clientKey(req)}`), signal: closedBeforeAnswer(reply.raw) }, done);
  });

  // requests in flight, for the stall log: what was running when the loop stood still
  const inFlight = new Map<string, { id: string; method: string; url: string; route: string; startedAt: number }>();
  const recent: Array<{ id: string; method: string; url: string; route: string; startedAt: number; endedAt: number }> = [];
  app.addHook('onRequest', async (req) => {
    inFlight.set(req.id, { id: req.id, method: req.method, url: req.url.slice(0, 200), route: req.routeOptions.url ?? 'unmatched', startedAt: performance.now() });
  });
  const done = (id: string) => {
    const r = inFlight.get(id);
    if (!r) return;
    inFlight.delete(id);
    recent.push({ ...r, endedAt: performance.now() });
    if (recent.length > 32) recent.shift();
  };
  app.addHook('onRequestAbort', async (req) => done(req.id));

  const detector = startStallDetector((stallMs, from, to) => {
    stalls.inc();
    // every request whose time overlaps the stall: one of them is the cause
    const requests = [...recent.filter((r) => r.endedAt >= from), ...inFlight.values()]
      .filter((r) => r.startedAt <= to)
      .slice(0, 20)
      .map((r) => ({ reqId: r.id, method: r.method, route: r.route, url: r.url, ms: Math.round(to - r.startedAt) }));
    app.log.warn({ stallMs: Math.round(stallMs), requests }, 'event loop stalled');
  });
  app.addHook('onClose', async () => detector.stop());

  app.addHook('onResponse', async (req, reply) => {
    done(req.id);
    // the route pattern keeps the label set small; unmatched paths share one label
    const route = req.routeOptions.url ?? 'unmatched';
    const labels = { method: req.method, route, status_code: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { config: { access: 'public' }, logLevel: 'warn' }, async (req, reply) => {
    const verdict = metricsAllowed(req, app.ctx.config.METRICS_TOKEN);
    if (verdict === 'unauthorized') {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized('Metrics need a valid bearer token');
    }
    if (verdict === 'forbidden') throw forbidden('Metrics are only served to loopback or with a token');
    const merged = Registry.merge([processMetrics(), registry]);
    reply.header('cache-control', 'no-store');
    return reply.type(merged.contentType).send(await merged.metrics());
  });
}

/** A stall this long or longer is logged and counted (issue 32). */
export const STALL_MS = 100;
/** The detector's tick: a timer this often, each one checks how late it fired. */
const STALL_TICK_MS = 50;

/**
 * Finds event-loop stalls by timer drift: a timer due every STALL_TICK_MS that fires more than
 * STALL_MS late means the loop stood still that long. One unref'd timer and a subtraction a tick.
 */
export function startStallDetector(onStall: (stallMs: number, from: number, to: number) => void, tickMs = STALL_TICK_MS, thresholdMs = STALL_MS): { stop(): void } {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - tickMs;
    if (late >= thresholdMs) onStall(late, last + tickMs, now);
    last = now;
  }, tickMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Per lane (visitor, render, upload, ai): waiting, running, refused and killed tasks (decision 32-02). */
function registerLaneMetrics(registry: Registry) {
  new Gauge({
    name: 'task_queue_depth',
    help: 'Heavy tasks waiting for a worker thread or sandbox process, by lane',
    labelNames: ['lane'],
    registers: [registry],
    collect() {
      for (const lane of LANES) this.set({ lane }, laneCounters(lane).queued);
    },
  });
  new Gauge({
    name: 'tasks_running',
    help: 'Heavy tasks running now, by lane',
    labelNames: ['lane'],
    registers: [registry],
    collect() {
      for (const lane of LANES) this.set({ lane }, laneCounters(lane).running);
    },
  });
  new Counter({
    name: 'task_rejections_total',
    help: 'Heavy tasks refused, by lane and status (429: the client has too many in flight; 503: queue full or shutting down)',
    labelNames: ['lane', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const lane of LANES) for (const status of ['429', '503'] as const) this.inc({ lane, status }, laneCounters(lane).rejected[status]);
    },
  });
  new Counter({
    name: 'tasks_killed_total',
    help: 'Heavy tasks ended by force, by lane and reason (deadline: past its time limit; rlimit: a sandbox process hit its CPU or memory limit; crash: its process died otherwise)',
    labelNames: ['lane', 'reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const lane of LANES) for (const reason of KILL_REASONS) this.inc({ lane, reason }, laneCounters(lane).killed[reason]);
    },
  });
  new Gauge({
    name: 'sandbox_processes',
    help: 'Sandbox child processes alive (work on untrusted bytes)',
    registers: [registry],
    collect() {
      this.set(processPool().pids.length);
    },
  });
}
