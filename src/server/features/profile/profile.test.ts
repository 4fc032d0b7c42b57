import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { uploadAs } from '#tests/helpers/multipart';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rows = async (q: ReturnType<typeof sql>) => ((await t.app.ctx.db.execute(q)) as any).rows as any[];
const countOf = async (table: string) => Number((await rows(sql.raw(`select count(*)::int n from ${table}`)))[0].n);

const form = (over: Record<string, unknown> = {}) => ({
  fullName: 'Grace Hopper',
  jobTitle: 'Rear Admiral',
  email: 'grace@example.com',
  phoneNumber: '+1 212 555 0100',
  address: '1 Navy Way, Arlington, VA',
  companyName: 'US Navy',
  profileTemplate: 'modern',
  links: [
    { linkType: 'website', url: 'https://grace.example.com' },
    { linkType: 'github', url: 'https://github.com/grace' },
  ],
  ...over,
});

describe('profile API', () => {
  it('is for signed-in users only', async () => {
    const a = new Agent(t.app);
    expect((await a.get('/api/profile')).statusCode).toBe(401);
    expect((await a.post('/api/profile', form())).statusCode).toBe(401);
    expect((await a.put('/api/profile/abcdefgh', form())).statusCode).toBe(401);
    expect((await a.put('/api/profile', { fullName: 'X Y' })).statusCode).toBe(401);
    expect((await a.get('/api/stats/visits')).statusCode).toBe(401);
    expect((await a.get('/api/cards')).statusCode).toBe(401);
  });

  it('answers null before the profile exists, then creates it with a short random id', async () => {
    const { agent } = await signedInAgent(t.app);
    const none = await agent.get('/api/profile');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();

    const res = await agent.post('/api/profile', form());
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(p.id).toMatch(/^[a-z2-9]{10}$/);
    expect(p).toMatchObject({ fullName: 'Grace Hopper', jobTitle: 'Rear Admiral', profileTemplate: 'modern', companyName: 'US Navy' });
    expect(p.links.map((l: any) => [l.linkType, l.url])).toEqual([
      ['website', 'https://grace.example.com'],
      ['github', 'https://github.com/grace'],
    ]);
    expect((await agent.get('/api/profile')).json()).toEqual(p);
    // one profile per user
    expect((await agent.post('/api/profile', form())).statusCode).toBe(409);
  });

  it('ids are not a sequence', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const { agent } = await signedInAgent(t.app);
      ids.add((await agent.post('/api/profile', form())).json().id);
    }
    expect(ids.size).toBe(3);
    const sorted = [...ids].sort();
    expect(sorted.every((id) => /^[a-z2-9]{10}$/.test(id))).toBe(true);
  });

  it('defaults the layout to classic and stores empty optional fields as null', async () => {
    const { agent } = await signedInAgent(t.app);
    const res = await agent.post('/api/profile', { fullName: 'Al', email: '', phoneNumber: '', jobTitle: '' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ profileTemplate: 'classic', email: null, phoneNumber: null, jobTitle: null, links: [] });
  });

  it('refuses bad input with the spec messages and writes nothing', async () => {
    const { agent } = await signedInAgent(t.app);
    const before = await countOf('profiles');
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ fullName: 'A' }, 'fullName', 'Name must be at least 2 characters'],
      [{ fullName: undefined }, 'fullName', 'Name must be at least 2 characters'],
      [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
      [{ phoneNumber: '123' }, 'phoneNumber', 'Please enter a valid phone number'],
      [{ phoneNumber: 'call me maybe' }, 'phoneNumber', 'Please enter a valid phone number'],
      [{ profileTemplate: '' }, 'profileTemplate', 'Please select a digital profile style'],
      [{ profileTemplate: 'baroque' }, 'profileTemplate', 'Please select a digital profile style'],
      [{ links: [{ linkType: 'website', url: 'javascript:alert(1)' }] }, 'links.0.url', 'Please enter a valid URL starting with http:// or https://'],
      [{ links: [{ linkType: 'website', url: 'data:text/html,hi' }] }, 'links.0.url', 'Please enter a valid URL starting with http:// or https://'],
      [{ links: [{ linkType: 'myspace', url: 'https://x.example' }] }, 'links.0.linkType', 'Please choose a link type'],
      [
        { links: [1, 2, 3, 4].map((i) => ({ linkType: 'other', url: `https://x${i}.example` })) },
        'links',
        'You can add up to 3 links',
      ],
      [{ jobTitle: 'line one\r\nline two' }, 'jobTitle', 'Job title must be a single line of text'],
      [{ userId: 'someone-else' }, 'userId', 'Unknown field: userId'],
      [{ customPhotoUrl: 'https://evil.example/tracker.png' }, 'customPhotoUrl', 'Please upload the image again'],
    ];
    for (const [over, field, message] of cases) {
      const res = await agent.post('/api/profile', form(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().errors?.[field], JSON.stringify(over)).toBe(message);
    }
    expect(await countOf('profiles')).toBe(before);
    expect((await agent.get('/api/profile')).json()).toBeNull();
  });

  it('edits links: update by id, add new, delete via deleteLinks; never more than 3', async () => {
    const { agent } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', form())).json();
    const [site, gh] = p.links;

    // remove the saved github link, change the website, add two new ones
    const res = await agent.put(`/api/profile/${p.id}`, {
      ...form({ fullName: 'Grace B. Hopper', profileTemplate: 'corporate' }),
      links: [
        { id: site.id, linkType: 'website', url: 'https://hopper.example.com' },
        { linkType: 'linkedin', url: 'https://linkedin.com/in/grace' },
        { linkType: 'twitter', url: 'https://twitter.com/grace' },
      ],
      deleteLinks: [gh.id],
    });
    expect(res.statusCode).toBe(200);
    const updated = res.json();
    expect(updated.id).toBe(p.id); // printed on metal: never changes
    expect(updated.fullName).toBe('Grace B. Hopper');
    expect(updated.profileTemplate).toBe('corporate');
    expect(updated.links.map((l: any) => l.linkType)).toEqual(['website', 'linkedin', 'twitter']);
    expect(updated.links[0]).toEqual({ id: site.id, linkType: 'website', url: 'https://hopper.example.com', label: null });

    // a 4th link is refused and nothing changes (not even the name)
    const four = await agent.put(`/api/profile/${p.id}`, {
      ...form({ fullName: 'Changed Name' }),
      links: [...updated.links, { linkType: 'other', url: 'https://four.example' }],
    });
    expect(four.statusCode).toBe(400);
    const four2 = await agent.put(`/api/profile/${p.id}`, {
      ...form({ fullName: 'Changed Name' }),
      links: [{ linkType: 'other', url: 'https://four.example' }],
    });
    expect(four2.statusCode).toBe(400);
    expect(four2.json().errors.links).toBe('You can add up to 3 links');
    const after = (await agent.get('/api/profile')).json();
    expect(after.fullName).toBe('Grace B. Hopper');
    expect(after.links).toHaveLength(3);

    // deleting one makes room for another in the same request
    const swap = await agent.put(`/api/profile/${p.id}`, {
      ...form({ fullName: 'Grace B. Hopper' }),
      links: [...after.links.slice(0, 2), { linkType: 'other', url: 'https://new.example' }],
      deleteLinks: [after.links[2].id],
    });
    expect(swap.statusCode).toBe(200);
    expect(swap.json().links.map((l: any) => l.url)).toEqual(['https://hopper.example.com', 'https://linkedin.com/in/grace', 'https://new.example']);
  });

  it("another user's profile and links are unreachable: 404 / 400, nothing changes", async () => {
    const owner = await signedInAgent(t.app);
    const p = (await owner.agent.post('/api/profile', form())).json();
    const other = await signedInAgent(t.app);
    const res = await other.agent.put(`/api/profile/${p.id}`, form({ fullName: 'Hijacked' }));
    expect(res.statusCode).toBe(404);
    // the other user's own profile cannot delete or rewrite the owner's links by id
    const mine = (await other.agent.post('/api/profile', form({ links: [] }))).json();
    const del = await other.agent.put(`/api/profile/${mine.id}`, { ...form({ links: [] }), deleteLinks: [p.links[0].id] });
    expect(del.statusCode).toBe(400);
    const rewrite = await other.agent.put(`/api/profile/${mine.id}`, {
      ...form(),
      links: [{ id: p.links[0].id, linkType: 'website', url: 'https://evil.example' }],
    });
    expect(rewrite.statusCode).toBe(400);
    expect((await owner.agent.get('/api/profile')).json()).toEqual(p);
    // unknown and malformed ids
    expect((await owner.agent.put('/api/profile/zzzzzzzzzz', form())).statusCode).toBe(404);
    expect((await owner.agent.put('/api/profile/..%2F', form())).statusCode).toBeGreaterThanOrEqual(400);
  });

  it("refuses image URLs of another user's uploads", async () => {
    const alice = await signedInAgent(t.app);
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#336699' } }).png().toBuffer();
    const up = await uploadAs(t.app, alice.agent, '/api/upload/profile-image', 'profileImage', png);
    expect(up.statusCode).toBe(201);
    const url = up.json().url;
    const bob = await signedInAgent(t.app);
    const res = await bob.agent.post('/api/profile', form({ customPhotoUrl: url }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.customPhotoUrl).toBeDefined();
    const ok = await alice.agent.post('/api/profile', form({ customPhotoUrl: url }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().customPhotoUrl).toBe(url);
  });

  describe('PUT /api/profile (design flow)', () => {
    it('creates the profile when missing and needs a name for that', async () => {
      const { agent } = await signedInAgent(t.app);
      expect((await agent.put('/api/profile', { jobTitle: 'CTO' })).statusCode).toBe(400);
      const res = await agent.put('/api/profile', {
        fullName: 'Ada Lovelace',
        jobTitle: 'Analyst',
        website: 'https://ada.example',
        linkedinUrl: 'https://linkedin.com/in/ada',
        templateId: 16,
        cardType: 'black_anodized',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ fullName: 'Ada Lovelace', templateId: 16, cardType: 'black_anodized', profileTemplate: 'classic' });
      expect(res.json().links.map((l: any) => [l.linkType, l.url])).toEqual([
        ['website', 'https://ada.example'],
        ['linkedin', 'https://linkedin.com/in/ada'],
      ]);
    });

    it('updates only the fields sent, replaces website/linkedin in place, refuses bad values', async () => {
      const { agent } = await signedInAgent(t.app);
      const p = (await agent.post('/api/profile', form())).json();
      const res = await agent.put('/api/profile', { jobTitle: 'Commodore', website: 'https://new.example', templateId: 18 });
      expect(res.statusCode).toBe(200);
      const u = res.json();
      expect(u.id).toBe(p.id);
      expect(u).toMatchObject({ fullName: 'Grace Hopper', jobTitle: 'Commodore', email: 'grace@example.com', templateId: 18 });
      expect(u.links.find((l: any) => l.linkType === 'website')).toEqual({ id: p.links[0].id, linkType: 'website', url: 'https://new.example', label: null });
      expect(u.links).toHaveLength(2);

      for (const bad of [{ cardType: 'gold' }, { templateId: 999 }, { website: 'javascript:alert(1)' }, { email: 'x' }]) {
        const r = await agent.put('/api/profile', bad);
        expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      }
      expect((await agent.get('/api/profile')).json()).toEqual(u);
    });
  });
});
