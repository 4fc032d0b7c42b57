import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './smtp-server';

const root = path.resolve(__dirname, '../..');
const SERVER = path.join(root, 'dist', 'server', 'server.js');
const STAMP = path.join(root, 'dist', '.server-stamp');

/**
 * Bundles the server (esbuild, about a second) when dist/server is missing or older than the
 * sources. Several test files may ask at once: one builds under a lock file, the others wait.
 */
export async function ensureServerBuilt(): Promise<string> {
  const { buildIsStale } = (await import(path.join(root, 'scripts/stale.mjs'))) as { buildIsStale(root: string, stamp: string, dirs: string[]): boolean };
  const stale = () => !fs.existsSync(SERVER) || buildIsStale(root, STAMP, ['src/server', 'src/shared', 'drizzle']);
  if (!stale()) return SERVER;
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const lock = path.join(root, '.tmp', 'server-build.lock');
  const until = Date.now() + 120_000;
  for (;;) {
    let owner = false;
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      owner = true;
    } catch {
      // a lock left by a dead process is taken over after a minute
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > 60_000) fs.rmSync(lock, { force: true });
      } catch {}
    }
    if (owner) {
      try {
        if (stale()) {
          const started = Date.now();
          const { buildServer } = (await import(path.join(root, 'scripts/build.mjs'))) as { buildServer(): Promise<void> };
          await buildServer();
          fs.writeFileSync(STAMP, String(started));
        }
      } finally {
        fs.rmSync(lock, { force: true });
      }
      return SERVER;
    }
    if (Date.now() > until) throw new Error('timed out waiting for another test to build the server');
    await new Promise((r) => setTimeout(r, 200));
    if (!fs.existsSync(lock) && !stale()) return SERVER;
  }
}

export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [k: string]: unknown;
}

export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  logs: LogLine[];
  /** non-JSON output (should stay empty) */
  stderr: string[];
  readonly exited: boolean;
  /** resolves with the exit code (or signal name) */
  exit: Promise<number | string>;
  /** sends a signal and waits for the exit (kills with SIGKILL after `timeoutMs`) */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | string>;
}

/**
 * A data dir whose embedded database is already migrated: the migrated template dump (made once
 * per run by the global setup) unpacked into it. Creating a PGlite database from nothing takes
 * 4 s on an idle machine and much longer on a busy one; unpacking the dump is quicker.
 */
export async function prepareDataDir(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-proc-'))): Promise<string> {
  const template = process.env.PGLITE_TEMPLATE;
  if (!template || !fs.existsSync(template)) return dir;
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create({ dataDir: path.join(dir, 'pglite'), loadDataDir: new Blob([fs.readFileSync(template)]) });
  await pg.close();
  return dir;
}

/**
 * Starts `node dist/server/server.js` on a free loopback port with only the given settings
 * (plus a temp DATA_DIR unless one is given) and waits until GET /api/health answers 200.
 */
export async function startServerProcess(env: Record<string, string> = {}, opts: { readyTimeoutMs?: number; waitReady?: boolean } = {}): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = env.DATA_DIR ?? (env.DATABASE_URL ? fs.mkdtempSync(path.join(os.tmpdir(), 'mc-proc-')) : await prepareDataDir());
  const proc = spawn(process.execPath, [SERVER], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // staff sign in with a password in these tests unless one sets `required` (issue 39)
      STAFF_TWO_FACTOR: 'optional',
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const stderr: string[] = [];
  let buf = '';
  proc.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        stderr.push(line);
      }
    }
  });
  proc.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  let exited = false;
  const exit = new Promise<number | string>((resolve) => {
    proc.once('exit', (code, signal) => {
      exited = true;
      resolve(code ?? signal ?? -1);
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const sp: ServerProcess = {
    url,
    port,
    dataDir,
    proc,
    logs,
    stderr,
    get exited() {
      return exited;
    },
    exit,
    async stop(signal = 'SIGTERM', timeoutMs = 15_000) {
      if (exited) return exit;
      proc.kill(signal);
      const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
      const r = await exit;
      clearTimeout(timer);
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
      return r;
    },
  };
  if (opts.waitReady !== false) await waitReady(sp, opts.readyTimeoutMs ?? 60_000);
  return sp;
}

export async function waitReady(sp: ServerProcess, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (sp.exited) throw new Error(`server exited before it was ready: ${sp.stderr.join('').slice(-2000)} ${JSON.stringify(sp.logs.slice(-5))}`);
    try {
      const res = await fetch(`${sp.url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {}
    if (Date.now() > until) {
      await sp.stop('SIGKILL');
      throw new Error(`server not ready after ${timeoutMs} ms: ${sp.stderr.join('').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A tiny cookie-keeping HTTP client for a listening server (fetch with a jar). */
export class HttpAgent {
  cookies = new Map<string, string>();
  constructor(public base: string) {}

  async request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}, base = this.base) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const isBuffer = Buffer.isBuffer(body);
    const res = await fetch(base + url, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined && !isBuffer ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : isBuffer ? new Uint8Array(body) : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || (/^expires=/i.test(a.trim()) && new Date(a.trim().slice(8)).getTime() < Date.now()));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const buf = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      headers: res.headers,
      body: buf,
      text: () => buf.toString('utf8'),
      json: <T = any>() => JSON.parse(buf.toString('utf8')) as T,
    };
  }
  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, undefined, headers);
  }
  post(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', url, body, headers);
  }
  /** the same request against another instance, with this agent's cookies */
  on(base: string) {
    return {
      get: (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers, base),
      post: (url: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', url, body, headers, base),
      request: (method: string, url: string, body?: unknown, headers?: Record<string, string>) => this.request(method, url, body, headers, base),
    };
  }
}
