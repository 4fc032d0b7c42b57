import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { contactSaves, leads, linkClicks, visits } from '#server/db/schema/index';
import { visitFlusher } from './visit-flusher';
import { saveRate } from '#shared/schemas/engagement';
import { utcDays } from './engagement.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

async function owner(name = 'Grace Hopper') {
  const s = await signedInAgent(t.app);
  const res = await s.agent.post('/api/profile', { fullName: name });
  expect(res.statusCode).toBe(201);
  return { ...s, profileId: res.json().id as string };
}

const DAY = 86_400_000;
const today = utcDays(1)[0];
const daysAgo = (n: number, hour = 12) => new Date(Date.parse(`${today}T00:00:00Z`) - n * DAY + hour * 3_600_000);

describe('engagement stats', () => {
  it('is for signed-in users and validates the range', async () => {
    expect((await new Agent(t.app).get('/api/stats/engagement')).statusCode).toBe(401);
    const { agent } = await owner();
    for (const q of ['days=6', 'days=366', 'days=abc', 'days=7.5', 'x=1']) {
      const res = await agent.get(`/api/stats/engagement?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    const ok = await agent.get('/api/stats/engagement?days=7');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().daily).toHaveLength(7);
  });

  it('answers zeros (every day present) without a profile', async () => {
    const { agent } = await signedInAgent(t.app);
    const res = (await agent.get('/api/stats/engagement')).json();
    expect(res.days).toBe(30);
    expect(res.daily).toHaveLength(30);
    expect(res.to).toBe(today);
    expect(res.totals).toEqual({ views: 0, saves: 0, clicks: 0, leads: 0, saveRate: 0 });
    expect(res.bySource.map((s: any) => [s.source, s.views])).toEqual([
      ['card', 0],
      ['link', 0],
      ['direct', 0],
    ]);
  });

  it('counts views by day and source, saves, clicks, leads and the save rate, for the own profile only', async () => {
    const { agent, profileId } = await owner();
    const other = await owner('Someone Else');
    const db = t.app.ctx.db;
    await db.insert(visits).values([
      // two days ago: 3 card views (2 of one code), 1 link view
      { profileId, source: 'card', cardCode: 'AAAAAA', createdAt: daysAgo(2, 9) },
      { profileId, source: 'card', cardCode: 'AAAAAA', createdAt: daysAgo(2, 10) },
      { profileId, source: 'card', cardCode: 'BBBBBB', createdAt: daysAgo(2, 11) },
      { profileId, source: 'link', createdAt: daysAgo(2, 23) },
      // today: 2 direct views
      { profileId, source: 'direct', createdAt: daysAgo(0, 0) },
      { profileId, source: 'direct', createdAt: daysAgo(0, 0) },
      // out of the 7-day range
      { profileId, source: 'direct', createdAt: daysAgo(10) },
      // someone else's
      { profileId: other.profileId, source: 'card', createdAt: daysAgo(2) },
      { profileId: other.profileId, source: 'direct', createdAt: daysAgo(0, 0) },
    ]);
    await db.insert(contactSaves).values([
      { profileId, createdAt: daysAgo(2) },
      { profileId, createdAt: daysAgo(0, 0) },
      { profileId: other.profileId, createdAt: daysAgo(0, 0) },
    ]);
    await db.insert(linkClicks).values([
      { profileId, linkType: 'website', createdAt: daysAgo(2) },
      { profileId, linkType: 'website', createdAt: daysAgo(2) },
      { profileId: other.profileId, linkType: 'website', createdAt: daysAgo(2) },
    ]);
    await db.insert(leads).values([{ profileId, name: 'Ada', email: 'a@example.com', consent: true, createdAt: daysAgo(0, 0) }]);

    const res = await agent.get('/api/stats/engagement?days=7');
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s.from).toBe(utcDays(7)[0]);
    expect(s.to).toBe(today);
    const byDate = new Map(s.daily.map((d: any) => [d.date, d]));
    expect(byDate.get(utcDays(3)[0])).toEqual({
      date: utcDays(3)[0],
      views: 4,
      saves: 1,
      clicks: 2,
      leads: 0,
      saveRate: 0.25,
      card: 3,
      link: 1,
      direct: 0,
    });
    expect(byDate.get(today)).toEqual({ date: today, views: 2, saves: 1, clicks: 0, leads: 1, saveRate: 0.5, card: 0, link: 0, direct: 2 });
    expect(s.totals).toEqual({ views: 6, saves: 2, clicks: 2, leads: 1, saveRate: saveRate(2, 6) });
    expect(s.totals.saveRate).toBeCloseTo(0.3333, 4);
    expect(s.bySource).toEqual([
      { source: 'card', label: 'Card batch', views: 3 },
      { source: 'link', label: 'Shared link', views: 1 },
      { source: 'direct', label: 'Direct', views: 2 },
    ]);

    // the 30-day default includes the older view
    expect((await agent.get('/api/stats/engagement')).json().totals.views).toBe(7);
    // the other owner sees only their own
    expect((await other.agent.get('/api/stats/engagement?days=7')).json().totals).toMatchObject({ views: 2, saves: 1, clicks: 1, leads: 0 });
  });

  it("lists views per card code of the owner's codes", async () => {
    const { agent, profileId } = await owner();
    const a = await agent.post('/api/card-codes', { label: 'Batch A' });
    const b = await agent.post('/api/card-codes', { label: 'Batch B' });
    const [ca, cb] = [a.json().code, b.json().code];
    await t.app.ctx.db.insert(visits).values([
      { profileId, source: 'card', cardCode: cb, createdAt: daysAgo(1) },
      { profileId, source: 'card', cardCode: cb, createdAt: daysAgo(1) },
      { profileId, source: 'card', cardCode: ca, createdAt: daysAgo(1) },
    ]);
    await agent.patch(`/api/card-codes/${ca}`, { active: false });
    const s = (await agent.get('/api/stats/engagement')).json();
    expect(s.byCardCode).toEqual([
      { code: cb, label: 'Batch B', active: true, views: 2 },
      { code: ca, label: 'Batch A', active: false, views: 1 },
    ]);
  });

  it('includes events still waiting in the visit buffer', async () => {
    const { agent, profileId } = await owner();
    const f = visitFlusher(t.app.ctx);
    f.record({ kind: 'visit', profileId, at: new Date(), userAgent: 'Mozilla/5.0 (iPhone)', device: 'Mobile', source: 'card', cardCode: 'CCCCCC' });
    f.record({ kind: 'save', profileId, at: new Date() });
    f.record({ kind: 'click', profileId, at: new Date(), linkId: 1, linkType: 'website' });
    const s = (await agent.get('/api/stats/engagement?days=7')).json();
    expect(s.totals).toMatchObject({ views: 1, saves: 1, clicks: 1, saveRate: 1 });
    expect(s.bySource[0]).toMatchObject({ source: 'card', views: 1 });
  });
});
