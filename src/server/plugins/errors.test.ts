import net from 'node:net';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from './errors';

/** A Fastify app with the app's error handler whose log lines are collected. */
function appWithLog() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  registerErrorHandler(app);
  return { app, lines };
}

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('error handler', () => {
  it('a failure after the caller went away is not logged as our error (no 500 line)', async () => {
    const { app, lines } = appWithLog();
    app.get('/slow', async (req) => {
      // the answer is still being made when the caller leaves; then the stream under it fails
      if (!req.socket.destroyed) await once(req.socket, 'close');
      throw Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
    const { port } = app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('GET /slow HTTP/1.1\r\nhost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    await expect.poll(() => lines.some((l) => l.msg === 'the caller went away before the answer')).toBe(true);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('the same failure with the caller still there is a 500, logged', async () => {
    const { app, lines } = appWithLog();
    app.get('/broken', async () => {
      throw Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    });
    const res = await app.inject({ method: 'GET', url: '/broken' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
    expect(lines.some((l) => l.level === 50 && l.msg === 'unhandled error')).toBe(true);
  });
});
