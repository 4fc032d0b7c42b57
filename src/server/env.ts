import { z } from 'zod';
import ipaddr from 'ipaddr.js';
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

/** TRUST_PROXY: off, a number of proxy hops, or the proxies' addresses/CIDRs (and proxy-addr's loopback, linklocal, uniquelocal) */
export type TrustProxy = false | number | string[];
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isCidr = (s: string) => {
  try {
    ipaddr.parseCIDR(s);
    return /^[0-9a-f:.]+\/\d{1,3}$/.test(s);
  } catch {
    return false;
  }
};

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
  // embedded database (no DATABASE_URL): run PGlite on a thread of its own (decision 18-05)
  PGLITE_THREAD: boolOn,
  PUBLIC_URL: optionalString,
  SESSION_SECRET: optionalString,
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(14),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(60),
  // issue 39, decision 39-01: staff need a second factor (required) or may sign in with a password alone (optional)
  STAFF_TWO_FACTOR: z.enum(['required', 'optional']).default('required'),
  // how long a sign-in or factor check counts as recent for sensitive staff actions; 0 turns the check off
  RECENT_AUTH_MINUTES: z.coerce.number().int().min(0).max(24 * 60).default(15),
  // key for the TOTP secrets at rest (any long random string); unset: a key generated once in the database
  TWO_FACTOR_KEY: optionalString,
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
  // which proxies' X-Forwarded-For to believe (issue 33, decision 33-02): a number of hops, or the
  // proxies' addresses/CIDRs; a blanket "true" is refused (a client could pick its own address)
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx): TrustProxy => {
      const t = (v ?? '').trim().toLowerCase();
      if (t === '' || t === 'false' || t === '0' || t === 'no' || t === 'off') return false;
      if (/^\d+$/.test(t)) {
        if (Number(t) <= 10) return Number(t);
        ctx.addIssue({ code: 'custom', message: 'a number of proxy hops is at most 10; see README.md, "Behind a proxy"' });
        return z.NEVER;
      }
      if (t === 'true' || t === 'yes' || t === 'on' || t === '*') {
        ctx.addIssue({ code: 'custom', message: `"${v}" would let any client choose its own address for every per-address limit: set the number of proxies in front of the app (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1); see README.md, "Behind a proxy"` });
        return z.NEVER;
      }
      const list = t.split(',').map((s) => s.trim()).filter(Boolean);
      const bad = list.filter((s) => !PROXY_NAMES.has(s) && !(/^[0-9a-f:.]+$/.test(s) && ipaddr.isValid(s)) && !isCidr(s));
      if (list.length === 0 || bad.length) {
        ctx.addIssue({ code: 'custom', message: `not a number of hops (0-10) or a list of proxy addresses/CIDRs: ${bad.join(', ') || v}; see README.md, "Behind a proxy"` });
        return z.NEVER;
      }
      return list;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Metal Cards NYC <hello@metalcards.nyc>'),
  /** sent e-mails are deleted from the outbox this many days after sending (issue 33, decision 33-03) */
  OUTBOX_KEEP_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  SHOPIFY_STORE_DOMAIN: optionalString,
  SHOPIFY_STOREFRONT_TOKEN: optionalString,
  SHOPIFY_API_URL: optionalString,
  /** the store's webhook signing secret (issue 35): without it every store webhook answers 401 */
  SHOPIFY_WEBHOOK_SECRET: optionalString,
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
  // the sandbox for work on untrusted bytes (issue 32, decision 32-02): child processes (at most
  // SANDBOX_POOL_SIZE, all kept loaded: decision 32-02's memory arithmetic), each under prlimit's CPU-seconds and data-segment limits;
  // one client (account, or address when signed out) has at most HEAVY_TASKS_PER_CLIENT such tasks
  // running or waiting (0: no limit)
  SANDBOX_POOL_SIZE: z.coerce.number().int().min(1).max(32).default(2),
  SANDBOX_CPU_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  SANDBOX_MEMORY_MB: z.coerce.number().int().min(256).max(65_536).default(384),
  HEAVY_TASKS_PER_CLIENT: z.coerce.number().int().min(0).max(1000).default(2),
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
  // identity audit log (issue 39, decision 39-02): days an entry is kept
  AUDIT_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  // team single sign-on (issue 39, decision 39-03): the DNS servers asked for the domains' TXT proof
  // (host:port, comma-separated; unset: the system's resolver); identity providers on loopback,
  // private networks or plain http (tests and local development only)
  SSO_DNS_RESOLVER: optionalString,
  SSO_ALLOW_PRIVATE_NETWORKS: bool,
  // online backups of the embedded database (issue 38, decision 38-02): folder (default DATA_DIR/backups),
  // hours between scheduled backups (0: none), how many to keep
  BACKUP_DIR: optionalString,
  BACKUP_EVERY_HOURS: z.coerce.number().min(0).max(24 * 365).default(0),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
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
