import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { outboxBacklog } from '#server/infra/mail/outbox';
import { visitFlusher } from '#server/jobs/visit-flusher';
import { forbidden, unauthorized } from '#server/http/http-errors';

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
export function registerMetrics(app: FastifyInstance) {
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
      this.set(visitFlusher(app.ctx).pending);
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

  app.addHook('onResponse', async (req, reply) => {
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
