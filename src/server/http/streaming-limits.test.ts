import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';

/**
 * Byte limits hold while the body streams in (issue 32): every upload route and a JSON body
 * answer 413 for a body over their cap sent WITHOUT a Content-Length (chunked, as a client that
 * does not say how much is coming), while the client is still sending, and write nothing: no
 * `files` row, no stored file. The client keeps sending up to 48 MB past the cap; the answer must
 * come before it has handed 8 MB past the cap to its socket (the kernel's buffers on loopback hold
 * a few MB), so a server that reads the whole body before answering fails.
 */
let t: TestApp;
const cookieOf = (agent: { cookies: Map<string, string> }) => [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
let user = '';
let admin = '';
let teamOwner = '';

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  user = cookieOf((await signedInAgent(t.app)).agent);
  admin = cookieOf((await adminAgent(t.app)).agent);
  const owner = await signedInAgent(t.app);
  const team = await owner.agent.post('/api/team', { name: 'Streamers' });
  expect(team.statusCode, team.body).toBe(201);
  teamOwner = cookieOf(owner.agent);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const fileRows = async () => Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from files`)) as any).rows[0].n);
function storedFiles(dir = t.dataDir): number {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((n, d) => n + (d.isDirectory() ? storedFiles(path.join(dir, d.name)) : d.name.includes('.') ? 1 : 0), 0);
}

interface Streamed {
  status: number;
  body: string;
  /** bytes the client had written when the answer arrived */
  sentWhenAnswered: number;
  ms: number;
}

/**
 * POSTs `head`, then `fill` bytes in 64 KB chunks (chunked, no Content-Length) up to `maxBytes` over
 * a raw socket; stops writing as soon as the answer's first bytes arrive. The request is never
 * ended before that. A raw socket, because the server closes the connection with its answer: an
 * HTTP client that fails a write (EPIPE) drops the answer it has already received.
 */
function streamPost(url: string, headers: Record<string, string>, head: Buffer, fill: number, maxBytes: number): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const { port } = t.app.server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let sent = 0;
    let sentWhenAnswered = -1;
    const got: Buffer[] = [];
    const finish = () => {
      const text = Buffer.concat(got).toString('utf8');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (!m) return reject(new Error(`no answer (sent ${sent} bytes): ${text.slice(0, 200)}`));
      const [rawHead, ...rest] = text.split('\r\n\r\n');
      let body = rest.join('\r\n\r\n');
      // a chunked answer: the first chunk is the JSON
      if (/transfer-encoding: chunked/i.test(rawHead)) body = body.split('\r\n')[1] ?? '';
      resolve({ status: Number(m[1]), body, sentWhenAnswered, ms: performance.now() - t0 });
    };
    socket.on('data', (c: Buffer) => {
      if (sentWhenAnswered < 0) sentWhenAnswered = sent;
      got.push(c);
      const text = Buffer.concat(got).toString('utf8');
      const headEnd = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (headEnd >= 0 && length && text.length >= headEnd + 4 + Number(length[1])) {
        socket.destroy();
        finish();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => (sentWhenAnswered >= 0 ? finish() : reject(new Error(`closed without an answer after ${sent} bytes`))));
    const headerText = Object.entries({ host: '127.0.0.1', ...headers, 'transfer-encoding': 'chunked' })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    socket.write(`POST ${url} HTTP/1.1\r\n${headerText}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, fill);
    const frame = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
    const pump = () => {
      while (sentWhenAnswered < 0 && !socket.destroyed && sent < maxBytes) {
        const body = sent === 0 ? head : chunk;
        sent += body.length;
        if (!socket.write(frame(body))) return void socket.once('drain', pump);
      }
      if (sentWhenAnswered < 0 && !socket.destroyed) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

const boundary = '----mcstream0123456789';
const multipartHead = (field: string, filename: string) =>
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
const MB = 1024 * 1024;

const UPLOADS: { name: string; url: string; field: string; cap: number; cookie: () => string; filename?: string; fill?: number }[] = [
  { name: 'profile image', url: '/api/upload/profile-image', field: 'profileImage', cap: 5 * MB, cookie: () => user },
  { name: 'logo', url: '/api/upload/logo', field: 'logoImage', cap: 5 * MB, cookie: () => user },
  { name: 'banner logo', url: '/api/upload/banner-logo', field: 'bannerLogoImage', cap: 5 * MB, cookie: () => user },
  { name: 'artwork (signed out)', url: '/api/upload/artwork', field: 'artwork', cap: 10 * MB, cookie: () => '' },
  { name: 'AI image', url: '/api/photoroom/remove-background', field: 'image', cap: 10 * MB, cookie: () => user },
  { name: 'team CSV import', url: '/api/team/invites/import', field: 'file', cap: 1 * MB, cookie: () => teamOwner, filename: 'people.csv', fill: 0x2c },
];

describe('byte limits are enforced while the body streams in (no Content-Length)', () => {
  for (const u of UPLOADS) {
    it(`${u.name}: 413 while the client is still sending, nothing stored`, async () => {
      const rows = await fileRows();
      const files = storedFiles();
      const cookie = u.cookie();
      const res = await streamPost(
        u.url,
        { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(cookie ? { cookie } : {}) },
        multipartHead(u.field, u.filename ?? 'big.png'),
        u.fill ?? 0x41,
        u.cap + 48 * MB,
      );
      expect(res.status, res.body).toBe(413);
      expect(JSON.parse(res.body).message).toMatch(/too large/i);
      expect(res.sentWhenAnswered, 'answered while the client was still sending').toBeLessThan(u.cap + 8 * MB);
      expect(res.ms).toBeLessThan(10_000);
      expect(await fileRows()).toBe(rows);
      expect(storedFiles()).toBe(files);
    }, 30_000);
  }

  it('a JSON body over the server-wide bodyLimit (1 MB): 413 while streaming', async () => {
    const res = await streamPost('/api/auth/login', { 'content-type': 'application/json' }, Buffer.from('{"email":"'), 0x61, 48 * MB);
    expect(res.status, res.body).toBe(413);
    expect(res.sentWhenAnswered).toBeLessThan(9 * MB);
  }, 30_000);

  it('template SVG saves (JSON, 3 MB limit, admin): 413 while streaming, nothing stored', async () => {
    const files = storedFiles();
    for (const url of ['/api/svg-files', '/api/svg-files/preview']) {
      const res = await streamPost(url, { 'content-type': 'application/json', cookie: admin }, Buffer.from('{"frontSvg":"'), 0x61, 48 * MB);
      expect(res.status, `${url} ${res.body}`).toBe(413);
      expect(res.sentWhenAnswered, url).toBeLessThan(11 * MB);
    }
    expect(storedFiles()).toBe(files);
  }, 30_000);
});
