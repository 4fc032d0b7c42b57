import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { createVisitFlusher, visitFlusher } from './visit-flusher';

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
    await f.stop();
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
