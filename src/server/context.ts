import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './env';
import type { Database, Db } from '#server/db/client';
import type { Storage } from '#server/infra/storage';
import type { RateLimiter } from '#server/infra/rate-limit';
import type { MailTransport } from '#server/infra/mail/transport';
import type { OutboxWorker } from '#server/jobs/outbox-worker';
import type { PollingWorker } from '#server/infra/polling-worker';
import type { ChangeFeed } from '#server/infra/change-feed';
import type { ApiScope } from '#shared/schemas/developer';

/** Everything a feature needs, built once in buildApp and reachable as `app.ctx` / `request.server.ctx`. */
export interface AppContext {
  config: AppConfig;
  database: Database;
  db: Db;
  storage: Storage;
  rateLimiter: RateLimiter;
  mail: MailTransport;
  outbox: OutboxWorker;
  /** webhook fan-out and delivery (issue 23); set once buildApp has made it */
  webhooks?: PollingWorker;
  /** "this changed" signals to every instance (cache invalidation), see lib/change-feed.ts */
  changes: ChangeFeed;
  log: FastifyBaseLogger;
  /** secret used to hash session tokens (SESSION_SECRET or one generated and kept in the database) */
  sessionSecret: string;
  /** the site's public origin, e.g. http://localhost:3000 (PUBLIC_URL or derived from the request) */
  publicUrl(req?: { protocol: string; host: string }): string;
  /** hooks run at shutdown (flush buffers, stop timers) */
  onClose: Array<() => Promise<void> | void>;
}

export type Access = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyContextConfig {
    /** who may call the route; checked by the access plugin before the handler. Required for /api routes. */
    access?: Access;
    /** the scopes an API token needs to call the route; without them no token reaches it (decision 23-01) */
    scopes?: readonly ApiScope[];
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionId: string | null;
    /** the cookie session's proofs (issue 39): when it last authenticated and passed a second factor */
    sessionAuth: { authenticatedAt: Date; secondFactorAt: Date | null } | null;
    /** set when the caller authenticated with `Authorization: Bearer` (an API token), never with a cookie */
    apiToken: { id: string; scopes: ApiScope[]; teamId: string | null } | null;
  }
}

export interface SessionUser {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role: 'user' | 'admin';
  /** the account's address is proven (issue 19) */
  emailVerified: boolean;
  createdAt: string;
}
