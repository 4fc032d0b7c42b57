import { z } from 'zod';
import path from 'node:path';
import { projectRoot } from '#server/infra/paths';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** a switch that is on unless set to false, 0 or no */
const boolOn = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => !(v === 'false' || v === '0' || v === 'no'));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/**
 * Every setting the app reads, validated once. The app runs with none set.
 * Documented in README.md (Configuration) and .env.example.
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  // PostgreSQL: longest a statement may run (server-side statement_timeout; the client gives up 1 s
  // later); default as DEFAULT_QUERY_TIMEOUT_MS in db/client.ts. Migrations are exempt (db/migrate.ts)
  DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(15_000),
  // embedded database (no DATABASE_URL): run PGlite on a thread of its own (decision 18-02)
  PGLITE_THREAD: boolOn,
  PUBLIC_URL: optionalString,
  SESSION_SECRET: optionalString,
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(14),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(60),
  ADMIN_EMAILS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** who gets the staff e-mails (new order, design waiting): every admin (default), a list, or none */
  STAFF_NOTIFY_EMAILS: z
    .string()
    .optional()
    .transform((v): 'admins' | 'none' | string[] => {
      const t = (v ?? '').trim().toLowerCase();
      if (t === '' || t === 'admins') return 'admins';
      if (t === 'none' || t === 'off') return 'none';
      return t.split(',').map((s) => s.trim()).filter(Boolean);
    }),
  TRUST_PROXY: bool,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Metal Cards NYC <hello@metalcards.nyc>'),
  SHOPIFY_STORE_DOMAIN: optionalString,
  SHOPIFY_STOREFRONT_TOKEN: optionalString,
  SHOPIFY_API_URL: optionalString,
  AI_BASE_URL: optionalString,
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(8000),
  PHOTOROOM_API_KEY: optionalString,
  PHOTOROOM_API_URL: optionalString,
  S3_ENDPOINT: optionalString,
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_REGION: z.string().default('us-east-1'),
  REDIS_URL: optionalString,
  METRICS_TOKEN: optionalString,
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  // the worker pool for CPU-heavy work (issue 18, decision 18-01): threads (default cores - 1, at
  // least 1), each task's time limit, and how many tasks of one kind may wait before 503
  WORKER_POOL_SIZE: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number().int().min(1).max(64).optional()),
  WORKER_TASK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  WORKER_QUEUE_SIZE: z.coerce.number().int().min(0).max(10_000).default(16),
  /** nice value of the threads heavy work runs on (Linux): 19 yields the most to the event loop */
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(19),
  // print check (issue 22, decision 22-01): smallest QR module, in millimetres, the engraver holds
  PRINT_MIN_QR_MODULE_MM: z.coerce.number().min(0.1).max(5).default(0.5),
  // wallet passes (issue 23, decision 23-03): each wallet is on only when all its settings are set;
  // certificates, keys and the service account key are a file path or the PEM / JSON text itself
  APPLE_WALLET_PASS_TYPE_ID: optionalString,
  APPLE_WALLET_TEAM_ID: optionalString,
  APPLE_WALLET_CERT: optionalString,
  APPLE_WALLET_KEY: optionalString,
  APPLE_WALLET_KEY_PASSPHRASE: optionalString,
  APPLE_WALLET_WWDR_CERT: optionalString,
  GOOGLE_WALLET_ISSUER_ID: optionalString,
  GOOGLE_WALLET_SERVICE_ACCOUNT: optionalString,
  // webhooks (issue 23, decision 23-02): http:// endpoints and private/loopback addresses are
  // refused unless these are set (local development and tests only); each delivery's time limit
  WEBHOOK_ALLOW_HTTP: bool,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool,
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1000).max(30_000).default(10_000),
  // API access tokens (issue 23, decision 23-01): requests per minute per token
  API_TOKEN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
});

export type Env = z.infer<typeof EnvSchema>;

export interface AppConfig extends Env {
  dataDir: string;
}

export function loadConfig(source: Record<string, string | undefined> = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(projectRoot(), overrides.DATA_DIR ?? env.DATA_DIR);
  return { ...env, ...overrides, dataDir };
}
