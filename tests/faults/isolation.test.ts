import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '#server/http/http-errors';
import { WorkerPool } from '#server/infra/worker-pool';
import { ProcessPool } from '#server/infra/process-pool';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { multipartBody, uploadAs } from '#tests/helpers/multipart';
import { signedInAgent, userInput } from '#tests/helpers/factories';
import { ensureServerBuilt, startServerProcess, type ServerProcess } from '#tests/helpers/server-process';
import { waitFor } from '#tests/helpers/smtp-server';

/**
 * Issue 18: one request never stalls the others. The hostile SVG corpus is refused with a clear
 * 4xx while /api/health stays quick; a runaway task is ended and the next one runs; a full queue
 * answers 503 with Retry-After; SIGTERM in the middle of renders exits within 10 s.
 */
const inPostgresProject = process.env.TEST_DB_KIND === 'postgres';
const SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="800" height="800">';

const CORPUS: Record<string, string> = {
  'deep nesting (10,000 <g>)': SVG_HEAD + '<g>'.repeat(10_000) + '<rect width="1" height="1"/>' + '</g>'.repeat(10_000) + '</svg>',
  'heavy filters': `${SVG_HEAD}<filter id="f"><feTurbulence baseFrequency="0.01" numOctaves="30"/><feGaussianBlur stdDeviation="300"/><feMorphology radius="300"/></filter><rect width="800" height="800" filter="url(#f)"/></svg>`,
  'huge blur radius': `${SVG_HEAD}<filter id="b"><feGaussianBlur stdDeviation="5000 5000"/></filter><rect width="800" height="800" filter="url(#b)"/></svg>`,
  'many filter primitives': `${SVG_HEAD}<filter id="m">${'<feOffset dx="1"/>'.repeat(200)}</filter><rect width="10" height="10" filter="url(#m)"/></svg>`,
  'nested <use> fan-out': `${SVG_HEAD}<defs><g id="l0"><rect width="1" height="1"/></g>${Array.from({ length: 9 }, (_, i) => `<g id="l${i + 1}">${`<use href="#l${i}"/>`.repeat(10)}</g>`).join('')}</defs><use href="#l9"/></svg>`,
  '50,000 elements': SVG_HEAD + '<rect width="1" height="1"/>'.repeat(50_000) + '</svg>',
};

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
}

describe('hostile SVG corpus, signed out and signed in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses each file with a clear 4xx, before any parser sees it', async () => {
    const { agent: user } = await signedInAgent(t.app);
    for (const [name, svg] of Object.entries(CORPUS)) {
      const artwork = multipartBody('artwork', Buffer.from(svg), { filename: 'a.svg', contentType: 'image/svg+xml' });
      const started = performance.now();
      const res = await t.app.inject({ method: 'POST', url: '/api/upload/artwork', payload: artwork.payload, headers: artwork.headers });
      const ms = performance.now() - started;
      expect(res.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, name).toBeLessThan(500);
      // a file over the SVG size cap (the 50,000 elements are 1.4 MB) is refused as too large while it streams in
      expect(res.json().message, name).toMatch(/too complex|too large/i);
      if (name.startsWith('deep')) console.log(`10,000-deep SVG refused in ${ms.toFixed(1)} ms`);
      // the same parser guards the signed-in logo upload
      const res2 = await uploadAs(t.app, user, '/api/upload/logo', 'logoImage', Buffer.from(svg), { filename: 'logo.svg', contentType: 'image/svg+xml' });
      expect(res2.statusCode, `logo: ${name}`).toBeGreaterThanOrEqual(400);
      expect(res2.statusCode, `logo: ${name}`).toBeLessThan(500);
    }
  });

  it('keeps /api/health quick while a stream of hostile uploads arrives', async () => {
    const deep = multipartBody('artwork', Buffer.from(CORPUS['deep nesting (10,000 <g>)']), { filename: 'a.svg', contentType: 'image/svg+xml' });
    const fanOut = multipartBody('artwork', Buffer.from(CORPUS['nested <use> fan-out']), { filename: 'a.svg', contentType: 'image/svg+xml' });
    const statuses: number[] = [];
    let done = false;
    const attackers = Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        for (let n = 0; n < 10; n++) {
          const body = (i + n) % 2 ? fanOut : deep;
          const res = await t.app.inject({ method: 'POST', url: '/api/upload/artwork', payload: body.payload, headers: body.headers });
          statuses.push(res.statusCode);
        }
      }),
    ).finally(() => (done = true));
    const health: number[] = [];
    for (let i = 0; i < 2000 && (i < 30 || !done); i++) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      health.push(performance.now() - started);
      expect(res.statusCode).toBe(200);
    }
    await attackers;
    console.log(`health p99 ${p99(health).toFixed(1)} ms during ${statuses.length} hostile uploads`);
    expect(statuses.length).toBe(40);
    expect(statuses.every((s) => s >= 400 && s < 500)).toBe(true);
    // generous for a shared 2-core machine; the bench holds the 50 ms bar
    expect(p99(health)).toBeLessThan(250);
  });
});

describe('the worker pool', () => {
  // an allowed but slowish SVG: jsdom and DOMPurify take a while over 3,000 elements
  const slowSvg = SVG_HEAD + '<rect width="1" height="1" fill="#123456"/>'.repeat(3_000) + '</svg>';
  const smallCard = '<svg xmlns="http://www.w3.org/2000/svg" width="350" height="200"><rect width="350" height="200" fill="#345"/></svg>';
  let pool: WorkerPool;
  afterAll(async () => {
    await pool?.close();
  });

  it('ends a runaway task (422, worker replaced) and runs the next one', { timeout: 60_000 }, async () => {
    pool = new WorkerPool({ size: 1, taskTimeoutMs: 30_000, queueSize: 2 });
    // a deadline counts from arrival (decision 32-02): the thread loads first, so the runaway task
    // below is ended while it runs (422), not while it waits for a thread to start (503)
    await pool.run('render', 'renderSvg', { svg: smallCard, opts: { format: 'png' } });
    // untrusted SVG runs in the sandbox now (decision 32-02); a thread's time limit still holds
    // a limit well above the start-up message's trip (at 20 ms a busy event loop could see the limit
    // before the "started" message, a 503), on a render needing seconds of CPU (decision 32-07)
    const runaway = '<svg xmlns="http://www.w3.org/2000/svg" width="1500" height="1500"><filter id="t"><feTurbulence baseFrequency="0.01" numOctaves="4"/></filter><rect width="1500" height="1500" filter="url(#t)"/></svg>';
    const err = await pool.run('render', 'renderSvg', { svg: runaway, opts: { format: 'png' } }, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).statusCode).toBe(422);
    expect((err as HttpError).message).toBe('This design is too complex to render');
    const png = await pool.run<Uint8Array>('render', 'renderSvg', { svg: smallCard, opts: { format: 'png' } });
    expect(Buffer.from(png).subarray(1, 4).toString()).toBe('PNG');
    expect(pool.pending('render')).toBe(0);
  });

  it('answers 503 with Retry-After when a lane’s queue is full, without blocking another lane', { timeout: 90_000 }, async () => {
    const full = new WorkerPool({ size: 1, taskTimeoutMs: 30_000, queueSize: 1 });
    const slowRender = { svg: slowSvg, opts: { format: 'png', width: 3000 } };
    try {
      const running = [full.run('render', 'renderSvg', slowRender), full.run('render', 'renderSvg', slowRender)];
      for (const r of running) r.catch(() => undefined);
      const refused = await full.run('render', 'renderSvg', slowRender).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(HttpError);
      expect((refused as HttpError).statusCode).toBe(503);
      expect(Number((refused as HttpError).headers?.['retry-after'])).toBeGreaterThan(0);
      // the visitor lane has its own thread and queue
      const render = full.run<Uint8Array>('visitor', 'renderSvg', { svg: smallCard, opts: { format: 'png' } });
      await Promise.all(running);
      expect((await render).length).toBeGreaterThan(0);
    } finally {
      await full.close();
    }
  });

  it.runIf(process.platform === 'linux')('runs heavy work below the event loop: every thread but the main one at the configured nice value', { timeout: 60_000 }, async () => {
    const niced = new WorkerPool({ size: 1, nice: 13 });
    try {
      await niced.run<Uint8Array>('render', 'renderSvg', { svg: smallCard, opts: { format: 'png' } });
      const fs = await import('node:fs');
      const os = await import('node:os');
      const name = (tid: number) => {
        try {
          return fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
        } catch {
          return '';
        }
      };
      // the visitor and scan lanes' threads keep the event loop's priority (decision 32-02)
      const others = fs.readdirSync('/proc/self/task').map(Number).filter((tid) => tid !== process.pid && name(tid) !== 'mc-visitor' && name(tid) !== 'mc-scan');
      const priorities = others.map((tid) => {
        try {
          return os.getPriority(tid);
        } catch {
          return 13; // ended meanwhile
        }
      });
      // the worker lowers every thread it finds (never raises one already lower)
      expect(priorities.every((p) => p >= 13)).toBe(true);
      expect(os.getPriority(process.pid)).toBeLessThan(13);
    } finally {
      await niced.close();
    }
  });

  it('refuses bad input from inside the sandbox as the same HttpError', { timeout: 60_000 }, async () => {
    const sandbox = new ProcessPool({ size: 1 });
    try {
      const err = await sandbox.run('upload', 'sanitizeSvg', { text: '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>' }, { timeoutMs: 30_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).statusCode).toBe(400);
      expect((err as HttpError).message).toMatch(/malformed/i);
    } finally {
      sandbox.close();
    }
  });
});

describe.skipIf(inPostgresProject)('fault: SIGTERM in the middle of card renders', () => {
  let s: ServerProcess;
  beforeAll(async () => {
    await ensureServerBuilt();
  }, 120_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
  });

  function post(port: number, path: string, body: unknown, cookie = ''): Promise<{ status: number; body: string; cookie: string } | { error: string }> {
    return new Promise((resolve) => {
      const data = JSON.stringify(body);
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)), origin: `http://127.0.0.1:${port}`, cookie } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), cookie: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ') }));
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      req.end(data);
    });
  }

  it('exits within 10 s while renders run', { timeout: 90_000 }, async () => {
    s = await startServerProcess({ RATE_LIMITS: 'off' });
    const reg = await post(s.port, '/api/auth/register', userInput());
    expect(reg).toMatchObject({ status: 201 });
    const cookie = 'cookie' in reg ? reg.cookie : '';
    expect(cookie).not.toBe('');
    let rendered = 0;
    let stop = false;
    const loops = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const r = await post(s.port, '/api/generate-card', { format: 'jpeg' }, cookie);
        if ('status' in r && r.status === 200) rendered++;
        if ('error' in r || r.status >= 500) break;
      }
    });
    await waitFor(() => rendered >= 2, 'a few renders to finish', 30_000);
    if (process.platform === 'linux' && !inPostgresProject) {
      // the embedded database runs on its own thread (decision 18-05), which the render workers
      // leave at the event loop's priority while they lower every other thread
      const os = await import('node:os');
      const fs = await import('node:fs');
      const threads = fs.readdirSync(`/proc/${s.proc.pid}/task`).map((tid) => {
        try {
          return { tid, name: fs.readFileSync(`/proc/${s.proc.pid}/task/${tid}/comm`, 'utf8').trim(), nice: os.getPriority(Number(tid)) };
        } catch {
          return { tid, name: '(ended)', nice: 19 };
        }
      });
      const database = threads.filter((t) => t.name === 'mc-database');
      expect(database).toHaveLength(1);
      expect(database[0].nice).toBe(os.getPriority(s.proc.pid!));
      expect(threads.some((t) => t.nice === 19)).toBe(true);
    }
    const signalledAt = Date.now();
    s.proc.kill('SIGTERM');
    const code = await s.exit;
    stop = true;
    const took = Date.now() - signalledAt;
    await Promise.all(loops);
    console.log(`SIGTERM during renders: exited in ${took} ms (code ${code})`);
    expect(took).toBeLessThan(10_000);
    expect(code).toBe(0);
  });
});
