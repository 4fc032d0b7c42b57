import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { createVisitFlusher, MAX_BUFFER, visitFlusher } from './visit-flusher';

const UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t.close();
});

const visitRows = async (profileId: string) =>
  Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from visits where profile_id = ${profileId}`)) as any).rows[0].n);

describe('visit flusher', () => {
  it('keeps a batch with a vanished profile from losing the other events', async () => {
    const { agent } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', { fullName: 'Flush Test' })).json();
    const f = createVisitFlusher(t.app.ctx, { intervalMs: 60_000 });
    const at = new Date();
    f.record({ kind: 'visit', profileId: 'doesnotexist', at, userAgent: UA, device: 'Mobile', source: 'direct' });
    f.record({ kind: 'visit', profileId: p.id, at, userAgent: UA, device: 'Mobile', source: 'direct' });
    f.record({ kind: 'click', profileId: p.id, at, linkId: 1, linkType: 'website' });
    expect(f.pending).toBe(3);
    await f.flush();
    expect(f.pending).toBe(0);
    expect(await visitRows(p.id)).toBe(1);
    // visits have no foreign key of their own (drizzle/0017): the rollups' kept the stray one out
    expect(await visitRows('doesnotexist')).toBe(0);
    await f.stop();
  });

  it('writes every view as its own row, in time order, whatever repeats (views are sent grouped)', async () => {
    const { agent } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', { fullName: 'Group Test' })).json();
    const q = (await (await signedInAgent(t.app)).agent.post('/api/profile', { fullName: 'Group Test 2' })).json();
    const f = createVisitFlusher(t.app.ctx, { intervalMs: 60_000, chunk: 7 });
    const desktop = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
    const long = `Mozilla/5.0 ${'x'.repeat(700)}`;
    const start = Date.parse('2026-12-01T10:00:00.000Z');
    const made: Array<{ profileId: string; at: Date; userAgent: string; device: string; source: string; cardCode: string | null }> = [];
    // interleaved repeats and singles: two profiles, three agents (one over 500 characters), three origins
    for (let i = 0; i < 40; i++) {
      const e = {
        profileId: i % 5 === 0 ? q.id : p.id,
        at: new Date(start + i * 250 + (i % 3)),
        userAgent: i % 4 === 0 ? desktop : i % 13 === 0 ? long : UA,
        device: i % 4 === 0 ? 'Desktop' : 'Mobile',
        source: i % 6 === 0 ? 'link' : 'direct',
        cardCode: null,
      };
      made.push(e);
      f.record({ kind: 'visit', ...e });
    }
    await f.flush();
    const rows = ((await t.app.ctx.db.execute(sql`select profile_id, created_at, user_agent, device, source, card_code from visits where profile_id in (${p.id}, ${q.id}) order by id`)) as any).rows;
    expect(rows.map((r: any) => [r.profile_id, new Date(r.created_at).toISOString(), r.user_agent, r.device, r.source, r.card_code])).toEqual(
      made.map((e) => [e.profileId, e.at.toISOString(), e.userAgent.slice(0, 500), e.device, e.source, null]),
    );
    await f.stop();
  });

  it('does not write a batch twice when its commit went unacknowledged', async () => {
    const { agent } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', { fullName: 'Retry Test' })).json();
    // the first transaction commits, then the caller hears of an error (a connection lost at commit)
    let failAfterCommit = 1;
    const db = new Proxy(t.app.ctx.db, {
      get(target, prop, receiver) {
        if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
        return async (fn: (tx: never) => Promise<unknown>) => {
          const result = await target.transaction(fn as never);
          if (failAfterCommit-- > 0) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
          return result;
        };
      },
    });
    const f = createVisitFlusher({ db, log: t.app.ctx.log }, { intervalMs: 60_000 });
    const at = new Date();
    for (let i = 0; i < 5; i++) f.record({ kind: 'visit', profileId: p.id, at, userAgent: UA, device: 'Mobile', source: 'direct' });
    f.record({ kind: 'save', profileId: p.id, at });
    await expect(f.flush()).rejects.toThrow('Connection terminated');
    expect(f.pending).toBe(6); // kept for the retry
    f.record({ kind: 'visit', profileId: p.id, at, userAgent: UA, device: 'Mobile', source: 'direct' });
    await f.flush();
    expect(f.pending).toBe(0);
    expect(await visitRows(p.id)).toBe(6);
    const saves = Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from contact_saves where profile_id = ${p.id}`)) as any).rows[0].n);
    expect(saves).toBe(1);
    // the rollups counted each view once too
    const views = Number(((await t.app.ctx.db.execute(sql`select coalesce(sum(n), 0)::int n from engagement_daily where profile_id = ${p.id} and kind = 'view'`)) as any).rows[0].n);
    expect(views).toBe(6);
    await f.stop();
  });

  it('holds at most MAX_BUFFER events while the database is away, dropping the oldest kept ones', async () => {
    const { agent } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', { fullName: 'Outage Test' })).json();
    let down = true;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const db = new Proxy(t.app.ctx.db, {
      get(target, prop, receiver) {
        if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
        return async (fn: (tx: never) => Promise<unknown>) => {
          if (!down) return target.transaction(fn as never);
          await gate;
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        };
      },
    });
    const f = createVisitFlusher({ db, log: t.app.ctx.log }, { intervalMs: 3_600_000 });
    // the n-th view of the test happens n ms after midnight
    const base = Date.UTC(2026, 0, 1);
    let seen = 0;
    const view = (n: number) => {
      for (let i = 0; i < n; i++) f.record({ kind: 'visit', profileId: p.id, at: new Date(base + seen++), userAgent: UA, device: 'Mobile', source: 'direct' });
    };
    view(30_000); // in flight when the write fails
    const flushing = f.flush().catch(() => undefined);
    await new Promise((r) => setImmediate(r)); // the write has taken its batch and waits on the database
    expect(f.pending).toBe(0);
    view(40_000); // arrive meanwhile
    release();
    await flushing;
    expect(f.pending).toBe(MAX_BUFFER); // 20,000 of the failed batch's oldest went
    view(1_000); // full: not kept
    expect(f.pending).toBe(MAX_BUFFER);
    down = false;
    await f.flush();
    expect(f.pending).toBe(0);
    expect(await visitRows(p.id)).toBe(MAX_BUFFER);
    const span = ((await t.app.ctx.db.execute(sql`select min(created_at) lo, max(created_at) hi from visits where profile_id = ${p.id}`)) as any).rows[0];
    expect([new Date(span.lo).getTime() - base, new Date(span.hi).getTime() - base]).toEqual([20_000, 69_999]);
    await f.stop();
  }, 60_000);

  it('removes the visits of a deleted profile with it, and prunes old batch keys', async () => {
    const { agent, user } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', { fullName: 'Delete Test' })).json();
    await t.app.ctx.db.execute(sql`insert into visit_batches (key, created_at) values ('old-batch', now() - interval '2 days'), ('recent-batch', now() - interval '1 hour')`);
    const f = createVisitFlusher(t.app.ctx, { intervalMs: 60_000 });
    for (let i = 0; i < 3; i++) f.record({ kind: 'visit', profileId: p.id, at: new Date(), userAgent: UA, device: 'Mobile', source: 'direct' });
    await f.stop();
    expect(await visitRows(p.id)).toBe(3);
    const keys = ((await t.app.ctx.db.execute(sql`select key from visit_batches where key in ('old-batch', 'recent-batch')`)) as any).rows.map((r: { key: string }) => r.key);
    expect(keys).toEqual(['recent-batch']);
    // deleting the account deletes the profile (cascade), and the profile's visits with it
    await t.app.ctx.db.execute(sql`delete from users where id = ${user.id}`);
    expect(await visitRows(p.id)).toBe(0);
  });

  it('writes a batch in statements of the chunk size, every event once', async () => {
    const { agent } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', { fullName: 'Chunk Test' })).json();
    // counts the INSERT statements the flusher sends through a database that passes them on
    let inserts = 0;
    const db = new Proxy(t.app.ctx.db, {
      get(target, prop, receiver) {
        if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
        return (fn: (tx: unknown) => Promise<unknown>) =>
          target.transaction((tx) =>
            fn(
              new Proxy(tx, {
                get(txTarget, txProp, txReceiver) {
                  if (txProp !== 'execute') return Reflect.get(txTarget, txProp, txReceiver);
                  return (q: Parameters<typeof tx.execute>[0]) => {
                    inserts++;
                    return txTarget.execute(q);
                  };
                },
              }),
            ),
          );
      },
    });
    for (const [chunk, statements] of [
      // one statement records the batch's key, then the inserts
      [500, 4],
      [100, 13],
    ] as const) {
      inserts = 0;
      const before = await visitRows(p.id);
      const f = createVisitFlusher({ db, log: t.app.ctx.log }, { intervalMs: 60_000, chunk });
      for (let i = 0; i < 1_150; i++) f.record({ kind: 'visit', profileId: p.id, at: new Date(), userAgent: UA, device: 'Mobile', source: 'direct' });
      await f.stop();
      expect(inserts).toBe(statements);
      expect((await visitRows(p.id)) - before).toBe(1_150);
    }
    // the app picks small statements only when they would run on the event loop's thread (tests
    // run PGlite there; PostgreSQL never)
    expect(t.app.ctx.database.onEventLoop).toBe(t.app.ctx.database.kind === 'pglite');
  });

  it('writes everything still buffered when the app shuts down', async () => {
    // the app's flusher, with a timer too slow to fire during the test
    const flusher = visitFlusher(t.app.ctx, { intervalMs: 3_600_000 });
    const { agent } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', { fullName: 'Shutdown Test' })).json();
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/p/${p.id}`, headers: { 'user-agent': UA } });
      expect(res.statusCode).toBe(200);
    }
    expect(await visitRows(p.id)).toBe(0); // still in the buffer
    expect(flusher.pending).toBe(7);
    await t.app.close(); // runs ctx.onClose: the flusher writes what it holds
    expect(await visitRows(p.id)).toBe(7);
  });
});
