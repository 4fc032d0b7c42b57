import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { multipartBody, uploadAs } from '#tests/helpers/multipart';
import { signedInAgent } from '#tests/helpers/factories';
import { runTask } from '#server/infra/worker-pool';
import { processPool } from '#server/infra/process-pool';

/**
 * Issue 32, lanes and quotas (decision 32-02): a visitor's QR code PNG never waits behind uploads;
 * one client has at most HEAVY_TASKS_PER_CLIENT heavy tasks in flight (beyond: 429 + Retry-After);
 * /metrics shows each lane's queue, refusals and killed tasks; an event-loop stall is logged with
 * the requests in flight.
 */

/** The signed-in logo of the report: 264 bytes, drawn at 1200 px its filter is 24,000 px wide. */
const SCALED_FILTER_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" width="1" height="1"><defs><filter id="f" x="-50" y="-50" width="100" height="100"><feMorphology operator="dilate" radius="20"/></filter></defs><rect width="1" height="1" fill="red" filter="url(#f)"/></svg>';
const SMALL_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#246"/></svg>';

describe('lanes: a visitor’s QR code PNG while hostile uploads queue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the QR PNG in well under a second while 4 scaled-filter logo uploads and 4 slow card renders are in flight', { timeout: 180_000 }, async () => {
    // warm: the first PNG loads resvg on the visitor thread; the sandbox has its warm child
    expect((await t.app.inject({ method: 'GET', url: '/api/qrcode?data=warm&format=png&size=240' })).statusCode).toBe(200);
    await uploadAs(t.app, (await signedInAgent(t.app)).agent, '/api/upload/logo', 'logoImage', Buffer.from(SMALL_SVG), { filename: 'l.svg', contentType: 'image/svg+xml' });
    const users = await Promise.all([0, 1, 2, 3].map(() => signedInAgent(t.app)));
    // the render lane busy too (whatever the uploads' fate: refused at once by a budget, or drawn
    // until their deadline), with renders of a few seconds each
    const slowRender = '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><filter id="b"><feTurbulence baseFrequency="0.02" numOctaves="6"/><feGaussianBlur stdDeviation="20"/></filter><rect width="1000" height="1000" filter="url(#b)"/></svg>';
    let rendersDone = 0;
    const renders = [0, 1, 2, 3].map(() =>
      runTask('render', 'renderSvg', { svg: slowRender, opts: { format: 'png' } }, { timeoutMs: 60_000 })
        .catch(() => undefined)
        .finally(() => rendersDone++),
    );
    let answered = 0;
    const uploads = users.map(({ agent }) =>
      uploadAs(t.app, agent, '/api/upload/logo', 'logoImage', Buffer.from(SCALED_FILTER_LOGO), { filename: 'logo.svg', contentType: 'image/svg+xml' }).finally(() => answered++),
    );
    // the uploads are in (their bodies parsed, their tasks queued or refused)
    await new Promise((r) => setTimeout(r, 150));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: `/api/qrcode?data=${encodeURIComponent(`https://example.com/p/${i}`)}&format=png&size=512` });
      times.push(performance.now() - started);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
    }
    const uploadsStillRunning = answered < uploads.length;
    const rendersRunning = renders.length - rendersDone;
    const statuses = (await Promise.all(uploads)).map((r) => r.statusCode);
    console.log(`QR PNG ${times.map((ms) => ms.toFixed(0)).join(', ')} ms while hostile uploads ${uploadsStillRunning ? 'were in flight' : 'had been answered'} and ${rendersRunning} slow renders were queued or running; uploads answered ${statuses.join(', ')}`);
    await Promise.all(renders);
    // every hostile upload refused with a 4xx (400 over budget, 422 killed at its deadline, 429 quota)
    for (const s of statuses) expect(s >= 400 && s < 500, `upload answered ${s}`).toBe(true);
    expect(Math.max(...times)).toBeLessThan(1000);
    expect(rendersRunning, 'the render lane was busy while the QR codes were asked for').toBeGreaterThanOrEqual(2);
  });
});

describe('quota: heavy tasks per client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'off', HEAVY_TASKS_PER_CLIENT: '2' } });
    // a loaded sandbox child: the quota is about tasks in flight, not a child's start-up
    await processPool().whenReady();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a signed-out client sending 6 uploads at once gets 429 with Retry-After past 2 in flight; the others are stored', { timeout: 120_000 }, async () => {
    // six different photos, each a real re-encode in the sandbox (tens of ms): a tiny SVG went
    // through the scan lane one at a time and its sandbox step ended before the next arrived, so
    // on a quiet machine no two were ever in flight together
    const photos = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30 * i, g: 90, b: 160 } } })
          .jpeg({ quality: 90 })
          .toBuffer(),
      ),
    );
    const bodies = photos.map((photo, i) => multipartBody('artwork', photo, { filename: `a${i}.jpg`, contentType: 'image/jpeg' }));
    const answers = await Promise.all(bodies.map((b) => t.app.inject({ method: 'POST', url: '/api/upload/artwork', payload: b.payload, headers: b.headers })));
    const statuses = answers.map((r) => r.statusCode);
    console.log(`6 uploads at once from one address: ${statuses.join(', ')}`);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.json().message).toMatch(/too many files are being processed for you at once/i);
    }
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(2);
    expect(statuses.every((s) => s === 201 || s === 429)).toBe(true);
    // a signed-in account is its own client: served while the address is busy
    const { agent } = await signedInAgent(t.app);
    const mine = await uploadAs(t.app, agent, '/api/upload/logo', 'logoImage', Buffer.from(SMALL_SVG), { filename: 'l.svg', contentType: 'image/svg+xml' });
    expect(mine.statusCode).toBe(201);
  });
});

describe('scan lane: a refusal the linear scan decides does not wait for a sandbox process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an over-budget SVG sent right after every sandbox process was killed is refused (400, the reason named) in under 200 ms', { timeout: 120_000 }, async () => {
    const upload = (svg: string) => {
      const b = multipartBody('artwork', Buffer.from(svg), { filename: 'a.svg', contentType: 'image/svg+xml' });
      return t.app.inject({ method: 'POST', url: '/api/upload/artwork', payload: b.payload, headers: b.headers });
    };
    // warm: the scan thread and a sandbox child are loaded
    await processPool().whenReady();
    await runTask('scan', 'scanSvg', { text: SMALL_SVG, maxBytes: 1 << 20 }, { timeoutMs: 60_000 });
    expect((await upload(SMALL_SVG)).statusCode).toBe(201);
    // elements nested 100 deep, and a filter 24,000 px wide once drawn: the scan's refusals
    const deep = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(100)}${'</g>'.repeat(100)}</svg>`;
    const times: number[] = [];
    for (const svg of [deep, SCALED_FILTER_LOGO, deep, SCALED_FILTER_LOGO]) {
      // as after a deadline kill: no sandbox process is ready (a fresh one takes 1-5 s to load)
      const killed = processPool().pids;
      for (const pid of killed) process.kill(pid, 'SIGKILL');
      while (processPool().pids.some((pid) => killed.includes(pid))) await new Promise((r) => setTimeout(r, 10));
      const started = performance.now();
      const res = await upload(svg);
      times.push(performance.now() - started);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/too complex/i);
    }
    console.log(`over-budget SVG with no sandbox process ready: 400 in ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    // the bar is 200 ms; on a shared two-core machine one sample may wait for a core, so the median
    // (before: each waited for a process to load, 1-5 s)
    expect([...times].sort((x, y) => x - y)[1]).toBeLessThan(200);
    expect(Math.max(...times)).toBeLessThan(1000);
    // the pool came back: a good file is still stored
    await processPool().whenReady();
    expect((await upload(SMALL_SVG)).statusCode).toBe(201);
  });
});

describe('observability: per-lane metrics and the event-loop stall log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'off', HEAVY_TASKS_PER_CLIENT: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('/metrics shows queue depth, running tasks, refusals and killed tasks per lane, and the stall count', { timeout: 120_000 }, async () => {
    const bodies = Array.from({ length: 3 }, () => multipartBody('artwork', Buffer.from(SMALL_SVG), { filename: 'a.svg', contentType: 'image/svg+xml' }));
    await Promise.all(bodies.map((b) => t.app.inject({ method: 'POST', url: '/api/upload/artwork', payload: b.payload, headers: b.headers })));
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    const text = res.body;
    for (const lane of ['visitor', 'render', 'upload', 'ai']) {
      expect(text).toMatch(new RegExp(`^task_queue_depth\\{lane="${lane}"\\} \\d+$`, 'm'));
      expect(text).toMatch(new RegExp(`^tasks_running\\{lane="${lane}"\\} \\d+$`, 'm'));
      for (const reason of ['deadline', 'rlimit', 'crash']) expect(text).toMatch(new RegExp(`^tasks_killed_total\\{lane="${lane}",reason="${reason}"\\} \\d+$`, 'm'));
      for (const status of ['429', '503']) expect(text).toMatch(new RegExp(`^task_rejections_total\\{lane="${lane}",status="${status}"\\} \\d+$`, 'm'));
    }
    const refused = Number(/^task_rejections_total\{lane="upload",status="429"\} (\d+)$/m.exec(text)?.[1]);
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^event_loop_stalls_total \d+$/m);
    expect(text).toMatch(/^sandbox_processes \d+$/m);
  });

  it('logs a stall over 100 ms with the route and request id of the requests in flight, and counts it', { timeout: 60_000 }, async () => {
    const warn = vi.spyOn(t.app.log, 'warn');
    try {
      const count = async () => Number(/^event_loop_stalls_total (\d+)$/m.exec((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body)?.[1]);
      const before = await count();
      // a request in flight (its body still arriving) while the loop stands still for 300 ms
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const { Readable } = await import('node:stream');
      const body = new Readable({ read() {} });
      const inFlight = t.app.inject({ method: 'POST', url: '/api/subscribe', payload: body, headers: { 'content-type': 'application/json' } });
      body.push('{"email":');
      await new Promise((r) => setTimeout(r, 100));
      const until = Date.now() + 300;
      while (Date.now() < until) {
        // the event loop stands still
      }
      await new Promise((r) => setTimeout(r, 150));
      release();
      await held;
      body.push('"stall@example.com"}');
      body.push(null);
      const res = await inFlight;
      const stall = warn.mock.calls.find((c) => c[1] === 'event loop stalled');
      expect(stall, 'a stall log line').toBeDefined();
      const fields = stall![0] as unknown as { stallMs: number; requests: Array<{ reqId: string; route: string; method: string }> };
      expect(fields.stallMs).toBeGreaterThanOrEqual(200);
      expect(fields.requests).toContainEqual(expect.objectContaining({ reqId: res.headers['x-request-id'], route: '/api/subscribe', method: 'POST' }));
      expect(await count()).toBeGreaterThanOrEqual(before + 1);
    } finally {
      warn.mockRestore();
    }
  });
});
