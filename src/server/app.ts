import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import type { AppConfig } from './env';
import type { AppContext } from './context';
import type { Database } from '#server/db/client';
import { DiskStorage, type Storage } from '#server/infra/storage';
import { createDbRateLimiter, trustProxyOption, type RateLimiter } from '#server/infra/rate-limit';
import { createRedisRateLimiter } from '#server/infra/redis-rate-limit';
import { S3Storage } from '#server/infra/s3-storage';
import { registerMetrics } from '#server/plugins/metrics';
import { createMailTransport, type MailTransport } from '#server/infra/mail/transport';
import { createOutboxWorker } from '#server/jobs/outbox-worker';
import { createWebhookWorker } from '#server/features/webhooks/webhook-worker';
import { visitFlusher } from '#server/features/engagement/visit-flusher';
import { registerResponseContracts, zodValidatorCompiler } from '#server/http/validation';
import { ErrorResponse } from '#shared/schemas/common';
import { sendApiNotFound } from '#server/http/not-found';
import { registerErrorHandler } from '#server/plugins/errors';
import { registerSecurity } from '#server/plugins/security';
import { registerSession } from '#server/plugins/session';
import { registerSpa } from '#server/plugins/spa';
import { sharedSecret } from '#server/infra/secrets';
import { createChangeFeed } from '#server/infra/change-feed';
import { configureWorkerPool, defaultPoolSize } from '#server/infra/worker-pool';
import { configureProcessPool, sandboxOptionsFrom } from '#server/infra/process-pool';
import { setPoolLogger } from '#server/infra/lanes';
import { featureRoutes } from './routes';
import { attachFastLane, createFastLane, fastLaneServerFactory } from '#server/http/fast-lane';

export interface BuildAppOptions {
  config: AppConfig;
  database: Database;
  storage?: Storage;
  mail?: MailTransport;
  logger?: FastifyServerOptions['logger'];
  /** serve the built web client (default true) */
  serveWeb?: boolean;
  webDir?: string;
  dev?: boolean;
  /**
   * Check every answer against the route's response schema (tests; off in production for speed):
   * a mismatch is logged with the zod issues and answered 500 (docs/decisions/17-01).
   */
  checkResponses?: boolean;
}

const REDACT = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'req.headers["x-shopify-storefront-access-token"]'];

/** Builds the whole app without listening (tests use app.inject; server.ts listens). */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  // answers that are the same for every anonymous caller, replayed in front of Fastify (decision 38-05)
  const lane = createFastLane();
  const app = Fastify({
    serverFactory: fastLaneServerFactory(lane),
    logger:
      opts.logger ??
      (config.LOG_LEVEL === 'silent'
        ? false
        : { level: config.LOG_LEVEL, redact: { paths: REDACT, censor: '[redacted]' } }),
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // a caller's (or load balancer's) X-Request-Id is kept when it is a sane token, so one id
    // follows a request through every instance's logs; otherwise a new one is made
    requestIdHeader: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{8,100}$/.test(given) ? given : crypto.randomUUID();
    },
    ajv: { customOptions: { coerceTypes: false } },
  } as FastifyServerOptions);

  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // only JSON and multipart bodies are accepted (text/plain would let simple cross-site forms through)
  app.removeContentTypeParser('text/plain');

  // several instances share files through an S3-compatible store; one instance may keep them on disk
  const storage: Storage =
    opts.storage ??
    (config.S3_ENDPOINT && config.S3_BUCKET
      ? await S3Storage.create({
          endpoint: config.S3_ENDPOINT,
          bucket: config.S3_BUCKET,
          region: config.S3_REGION,
          accessKeyId: config.S3_ACCESS_KEY_ID,
          secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        })
      : new DiskStorage(path.join(config.dataDir, 'files')));
  const mail = opts.mail ?? createMailTransport(config.SMTP_URL);
  const sessionSecret = config.SESSION_SECRET ?? (await sharedSecret(database.db, 'session'));
  const outbox = createOutboxWorker({
    db: database.db,
    transport: mail,
    from: config.MAIL_FROM,
    log: app.log,
    domain: config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : undefined,
    keepDays: config.OUTBOX_KEEP_DAYS,
  });

  const dbLimiter = createDbRateLimiter(database.db, config.RATE_LIMITS === 'on');
  const rateLimiter: RateLimiter = config.REDIS_URL
    ? await createRedisRateLimiter({ url: config.REDIS_URL, fallback: dbLimiter, log: app.log, enabled: config.RATE_LIMITS === 'on' })
    : dbLimiter;

  const changes = await createChangeFeed(database, app.log);
  // one pool per process (server.ts ends it at shutdown); settings apply from here
  configureWorkerPool({ size: config.WORKER_POOL_SIZE ?? defaultPoolSize(), taskTimeoutMs: config.WORKER_TASK_TIMEOUT_MS, queueSize: config.WORKER_QUEUE_SIZE, nice: config.WORKER_NICE });
  configureProcessPool(sandboxOptionsFrom(config));
  setPoolLogger((level, fields, msg) => app.log[level](fields, msg));

  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    storage,
    rateLimiter,
    mail,
    outbox,
    changes,
    log: app.log,
    sessionSecret,
    publicUrl(req) {
      if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
      if (req) return `${req.protocol}://${req.host}`;
      return `http://localhost:${config.PORT}`;
    },
    onClose: [],
  };
  app.decorate('ctx', ctx);
  attachFastLane(ctx, lane);
  // closing: new requests go to Fastify, which answers 503
  app.addHook('preClose', async () => {
    lane.open = false;
  });
  // webhooks (issue 23): recorded events fanned out and delivered, signed, in the background
  const webhooks = createWebhookWorker({
    db: database.db,
    log: app.log,
    policy: { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS },
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    onEmailQueued: () => outbox.kick(),
    manageUrl: () => `${ctx.publicUrl()}/account`,
  });
  ctx.webhooks = webhooks;
  ctx.onClose.push(() => webhooks.stop());

  app.addHook('onClose', async () => {
    for (const fn of ctx.onClose) await fn();
    await outbox.stop();
    await changes.close();
    if ('close' in rateLimiter && typeof rateLimiter.close === 'function') await rateLimiter.close();
    storage.close?.();
  });

  // before compress (its onSend hook would hand ours a stream) and before every feature's routes
  registerResponseContracts(app, { check: opts.checkResponses === true, errorSchema: ErrorResponse });

  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25, headerPairs: 100 },
    throwFileSizeLimit: true,
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['gzip', 'deflate'] });

  registerErrorHandler(app);
  registerSecurity(app, { dev: opts.dev });
  registerSession(app);
  // engagement's buffered public-page events (visits, clicks, saves), created on first use
  registerMetrics(app, { pendingVisitEvents: () => visitFlusher(ctx).pending });
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  for (const routes of featureRoutes) {
    if (Array.isArray(routes)) await app.register(routes[0], routes[1]);
    else await app.register(routes);
  }

  if (opts.serveWeb !== false) await registerSpa(app, { webDir: opts.webDir });
  else app.setNotFoundHandler((req, reply) => sendApiNotFound(app, req, reply));

  return app;
}
