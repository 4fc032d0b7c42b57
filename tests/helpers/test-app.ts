import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions } from '#server/app';
import { loadConfig, type AppConfig } from '#server/env';
import { runSeeds } from '#server/seeds';
import { processPool } from '#server/infra/process-pool';
import { createTestDatabase } from './test-db';

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The whole app on its own fresh database and data dir, for app.inject tests.
 * `env` sets settings as the environment would (strings); `seed` runs the start-up seeds.
 */
export async function createTestApp(
  opts: { env?: Record<string, string>; seed?: boolean; listen?: boolean } & Partial<Pick<BuildAppOptions, 'storage' | 'mail' | 'serveWeb'>> = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-test-'));
  // STAFF_TWO_FACTOR=optional: the suite's staff sign in with a password (issue 39); the tests of the
  // staff's second factor set `required` themselves (src/server/features/auth/two-factor.test.ts)
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: '', STAFF_TWO_FACTOR: 'optional', ...opts.env });
  const database = await createTestDatabase();
  // every answer is checked against its route's response schema: a broken contract fails the test
  const app = await buildApp({ config, database, storage: opts.storage, mail: opts.mail, serveWeb: opts.serveWeb ?? false, checkResponses: true });
  // the sandbox's warm child starts loading now, in the background at nice 19 (jsdom, sharp, resvg:
  // 4-15 s on a busy machine), so the first upload of a test file does not wait for it; one pool per
  // Vitest process, so later apps find it loaded; tests that never upload do not wait for it
  processPool().warmUp();
  if (opts.seed !== false) await runSeeds(app.ctx);
  await app.ready();
  return {
    app,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A cookie jar for app.inject: keeps the session cookie between calls like a browser would. */
export class Agent {
  cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  async request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.app.inject({
      method: method as any,
      url,
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      if (c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }
  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, undefined, headers);
  }
  post(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', url, body, headers);
  }
  put(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('PUT', url, body, headers);
  }
  patch(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('PATCH', url, body, headers);
  }
  delete(url: string, headers?: Record<string, string>) {
    return this.request('DELETE', url, undefined, headers);
  }
}
