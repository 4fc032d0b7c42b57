import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createScratchDatabase, pgAnswers, PG_BASE_URL, type ScratchDatabase } from '#tests/helpers/pg';
import { startSmtpServer, waitFor, type TestSmtpServer } from '#tests/helpers/smtp-server';
import { startS3Standin, type S3Standin } from '#tests/helpers/s3-standin';
import { ensureServerBuilt, HttpAgent, startServerProcess, type ServerProcess } from '#tests/helpers/server-process';
import { multipartBody } from '#tests/helpers/orders';
import { userInput } from '#tests/helpers/factories';

/**
 * Two app processes (`node dist/server/server.js`) on ONE fresh PostgreSQL database and ONE
 * S3-compatible store behave as one product: migrations once, sessions and files valid on both,
 * every outbox e-mail sent once, rate limits shared, an edited profile fresh on both at once,
 * visits neither lost nor doubled.
 * Runs once (in the pglite project; it brings its own PostgreSQL database).
 */
const inPostgresProject = process.env.TEST_DB_KIND === 'postgres';
const pgUp = !inPostgresProject && (await pgAnswers());
const skipReason = inPostgresProject
  ? 'runs once, in the pglite project'
  : `no PostgreSQL answers at ${new URL(PG_BASE_URL).host} (set TEST_DATABASE_URL)`;

const MOBILE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const root = path.resolve(__dirname, '../..');

if (!pgUp) {
  describe('two instances on shared infrastructure', () => {
    it.skip(`skipped: ${skipReason}`, () => {});
  });
} else {
  describe('two instances on one PostgreSQL database and one object store', () => {
    let db: ScratchDatabase;
    let smtp: TestSmtpServer;
    let s3: S3Standin;
    let a: ServerProcess;
    let b: ServerProcess;

    beforeAll(async () => {
      [db, smtp, s3] = await Promise.all([createScratchDatabase('mc2'), startSmtpServer(), startS3Standin(), ensureServerBuilt()]).then(
        ([d, m, s]) => [d, m, s] as const,
      );
      const env = { DATABASE_URL: db.url, DATABASE_POOL_SIZE: '4', SMTP_URL: smtp.url, ...s3.env(), LOG_LEVEL: 'warn' };
      // both start together on the empty database: both try to migrate at the same moment
      [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    }, 90_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await Promise.all([smtp?.close(), s3?.close()]);
      await db?.drop();
    });

    it('applies the migrations exactly once when both start together, and both answer healthy', async () => {
      const journal = JSON.parse(fs.readFileSync(path.join(root, 'drizzle/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
      const rows = await db.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations');
      expect(rows.length).toBe(journal.entries.length);
      expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length);
      for (const s of [a, b]) {
        const res = await fetch(`${s.url}/api/health`);
        expect(await res.json()).toMatchObject({ status: 'ok', database: 'postgres' });
      }
      // the shared session secret was made once
      const secrets = await db.query<{ n: number }>(`select count(*)::int as n from app_secrets where name = 'session'`);
      expect(secrets[0].n).toBe(1);
    });

    it('a session made on one instance is valid on the other, and logout on either ends it on both', async () => {
      const agent = new HttpAgent(a.url);
      const input = userInput();
      const reg = await agent.post('/api/auth/register', input);
      expect(reg.status).toBe(201);
      const me = await agent.on(b.url).get('/api/auth/user');
      expect(me.status).toBe(200);
      expect(me.json()).toMatchObject({ email: input.email });
      const out = await agent.on(b.url).post('/api/auth/logout', {});
      expect(out.status).toBeLessThan(300);
      // replay the old cookie on the first instance: the server-side session is gone
      const stale = new HttpAgent(a.url);
      stale.cookies = new Map(agent.cookies);
      const oldCookie = reg.headers.getSetCookie().find((c) => c.startsWith('sid='))!.split(';')[0].slice(4);
      stale.cookies.set('sid', oldCookie);
      expect((await stale.get('/api/auth/user')).status).toBe(401);
    });

    it('a file uploaded through one instance is served by the other from the object store', async () => {
      const agent = new HttpAgent(a.url);
      expect((await agent.post('/api/auth/register', userInput())).status).toBe(201);
      const png = await sharp({ create: { width: 90, height: 60, channels: 3, background: '#2a6' } }).png().toBuffer();
      const body = multipartBody('profileImage', { name: 'me.png', type: 'image/png', data: png });
      const up = await agent.request('POST', '/api/upload/profile-image', body.payload, body.headers);
      expect(up.status).toBe(201);
      const url = up.json<{ url: string }>().url;
      const key = url.replace(/^\/files\//, '');
      expect(s3.objects().has(key)).toBe(true);
      for (const s of [a, b]) expect(fs.existsSync(path.join(s.dataDir, 'files', key))).toBe(false);
      const fromB = await agent.on(b.url).get(url);
      expect(fromB.status).toBe(200);
      expect(fromB.body.equals(s3.objects().get(key)!.data)).toBe(true);
      const row = await db.query<{ n: number }>('select count(*)::int as n from files where key = $1', [key]);
      expect(row[0].n).toBe(1);
    });

    it('with both outbox workers running, every e-mail is sent exactly once', async () => {
      // e-mails queued earlier (sign-up verification links) are delivered first and not counted here
      const queuedBefore = (await db.query<{ n: number }>(`select count(*)::int as n from outbox`))[0].n;
      await waitFor(async () => (await db.query<{ n: number }>(`select count(*)::int as n from outbox where status <> 'sent'`))[0].n === 0, 'earlier e-mails sent', 30_000);
      await waitFor(() => smtp.messages.length >= queuedBefore, 'earlier e-mails received', 30_000);
      const before = smtp.messages.length;
      const N = 60;
      const values = Array.from({ length: N }, (_, i) => `('two-instances:${i}', 'test', 'r${i}@example.com', 'Message ${i}', 'Body ${i}', '<p>Body ${i}</p>')`).join(',');
      await db.query(`insert into outbox (dedupe_key, kind, to_address, subject, text_body, html_body) values ${values}`);
      // orders through both instances add e-mails queued by the app itself
      const orderBody = (i: number) => ({
        customerName: 'Grace Hopper',
        email: `order${i}@example.com`,
        phone: '+1 212 555 0100',
        companyName: 'Navy Labs',
        position: 'Rear Admiral',
        quantity: 100,
        cardType: 'standard',
        cardStyle: 'Matte',
        deliveryOption: 'standard',
        specialRequests: '',
        shippingAddress: { name: 'Grace Hopper', line1: '1 Navy Yard Way', city: 'Brooklyn', state: 'NY', postalCode: '11205' },
      });
      const o1 = await new HttpAgent(a.url).post('/api/order', orderBody(1));
      const o2 = await new HttpAgent(b.url).post('/api/order', orderBody(2));
      expect([o1.status, o2.status]).toEqual([201, 201]);
      const orders = 2;
      const expected = (await db.query<{ n: number }>(`select count(*)::int as n from outbox`))[0].n - queuedBefore;
      expect(expected).toBeGreaterThanOrEqual(N + orders);

      await waitFor(async () => (await db.query<{ n: number }>(`select count(*)::int as n from outbox where status <> 'sent'`))[0].n === 0, 'every outbox row sent', 30_000);
      // a doubled send would land within moments of the row being marked: wait until quiet
      let last = -1;
      await waitFor(
        async () => {
          const n = smtp.messages.length;
          const quiet = n === last;
          last = n;
          if (!quiet) await new Promise((r) => setTimeout(r, 750));
          return quiet;
        },
        'the SMTP server to go quiet',
        20_000,
      );
      const received = smtp.messages.slice(before);
      const ids = received.map((m) => m.messageId);
      expect(received.length).toBe(expected);
      expect(new Set(ids).size).toBe(ids.length);
      const subjects = received.map((m) => m.subject).filter((s) => /^Message \d+$/.test(String(s)));
      expect(new Set(subjects).size).toBe(N);
    });

    it('rate limits are shared: the login limit counts attempts on both instances together', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const target = i % 2 === 0 ? a : b;
        const res = await new HttpAgent(target.url).post('/api/auth/login', { email: `nobody${i}@example.com`, password: 'wrong-password' });
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // 10 per 3 minutes per address, whichever instance answers
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual([429, 429]);
    });

    it('a profile edited through one instance shows at once on the other (no stale cached page)', async () => {
      const owner = new HttpAgent(a.url);
      expect((await owner.post('/api/auth/register', userInput())).status).toBe(201);
      const created = await owner.post('/api/profile', { fullName: 'Ada Lovelace', jobTitle: 'Analyst' });
      expect(created.status).toBe(201);
      const id = created.json<{ id: string }>().id;
      // B reads the page, so it now holds the profile in its cache
      const before = await fetch(`${b.url}/p/${id}`);
      expect(await before.text()).toContain('Ada Lovelace');
      const edited = await owner.request('PUT', `/api/profile/${id}`, { fullName: 'Ada King', jobTitle: 'Countess' });
      expect(edited.status).toBe(200);
      // the change feed (LISTEN/NOTIFY) drops B's copy: the new name well within the cache's 30 s life
      const t0 = Date.now();
      await waitFor(async () => (await (await fetch(`${b.url}/p/${id}`)).text()).includes('Ada King'), 'B shows the edit', 5_000);
      expect(Date.now() - t0).toBeLessThan(5_000);
    });

    it('visits recorded on both instances are neither lost nor doubled, also across a graceful stop', async () => {
      const owner = new HttpAgent(a.url);
      expect((await owner.post('/api/auth/register', userInput())).status).toBe(201);
      const created = await owner.post('/api/profile', { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral' });
      expect(created.status).toBe(201);
      const id = created.json<{ id: string }>().id;
      const visitor = new HttpAgent(a.url);
      const N = 40;
      for (let i = 0; i < N; i++) {
        const res = await visitor.on(i % 2 ? b.url : a.url).get(`/p/${id}`, { 'user-agent': MOBILE_UA });
        expect(res.status).toBe(200);
      }
      const count = async () => (await db.query<{ n: number }>('select count(*)::int as n from visits where profile_id = $1', [id]))[0].n;
      // buffered in memory and written in batches (about every second)
      await waitFor(async () => (await count()) === N, `${N} visits written`, 15_000);
      // a graceful stop flushes whatever is left and must not write anything twice
      await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]);
      expect(await count()).toBe(N);
      expect(a.stderr.join('')).toBe('');
      expect(b.stderr.join('')).toBe('');
    });
  });
}
