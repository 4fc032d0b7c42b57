import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { outbox, users } from '#server/db/schema/index';
import { profileLinks, profiles } from '#server/db/schema/profile';
import { formatPhone, phoneE164, storedPhone, telHref, toE164 } from '#shared/profile/phone';
import { normalizeProfileLink } from '#shared/profile/links';
import { refuseSyncedChanges } from './synced-fields';
import type { ProfileRow } from './profile-row';

/**
 * Issue 37 item 1, decision 37-09: the profile's phone number (and a phone link's number) is stored
 * in E.164, a number without its country read as North American (the shop is in New York); one
 * that cannot be read so is refused with the spec's message and nothing is written. People see it
 * readable (`+1 212-555-0100`), `tel:` dials E.164, and numbers saved before are read so on read.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const form = (over: Record<string, unknown> = {}) => ({ fullName: 'Grace Hopper', profileTemplate: 'classic', ...over });
const storedRow = async (id: string) => (await t.app.ctx.db.select().from(profiles).where(eq(profiles.id, id)))[0]!;

describe('the profile phone rule (toE164, formatPhone)', () => {
  it('stores E.164: a country kept, a number without one read as North American, anything else refused', () => {
    expect(toE164('+1 (212) 555-0100')).toBe('+12125550100');
    expect(toE164('212.555.0100')).toBe('+12125550100');
    expect(toE164('1 212 555 0100')).toBe('+12125550100');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('0044 20 7946 0958')).toBe('+442079460958');
    // the North American exit code names the country that follows
    expect(toE164('011 44 20 7946 0958')).toBe('+442079460958');
    expect(phoneE164('011 44 20 7946 0958')).toBe('+442079460958');
    // no country and not North American: refused (the vCard's reader keeps such a number as its digits)
    expect(toE164('030 1234 5678')).toBeNull();
    expect(phoneE164('030 1234 5678')).toBe('03012345678');
    expect(toE164('555 0100')).toBeNull(); // seven digits: no area code
    expect(toE164('+1 123 555 0100')).toBeNull(); // +1 but no North American number
    expect(toE164('+1 555 0100')).toBeNull();
    expect(toE164('212 555 0100 x12')).toBeNull(); // E.164 has no extension
    expect(toE164('call me')).toBeNull();
  });

  it('shows numbers readable, dials E.164, and reads older values', () => {
    expect(formatPhone('+12125550100')).toBe('+1 212-555-0100');
    expect(formatPhone('+442079460958')).toBe('+44 207 946 0958');
    expect(formatPhone('+33123456789')).toBe('+33 123 456 789');
    expect(formatPhone('+4930123456')).toBe('+49 3012 3456');
    expect(formatPhone('+353851234567')).toBe('+353 851 234 567');
    expect(formatPhone('+79161234567')).toBe('+7 916 123 4567');
    // saved as typed before: read, then shown; one that cannot be read is shown as saved
    expect(formatPhone('(212) 555-0100')).toBe('+1 212-555-0100');
    expect(formatPhone(' 030 1234 5678 ')).toBe('030 1234 5678');
    expect(storedPhone('(212) 555-0100')).toBe('+12125550100');
    expect(storedPhone('030 1234 5678')).toBe('030 1234 5678');
    expect(storedPhone(null)).toBeNull();
    expect(telHref('(212) 555-0100')).toBe('tel:+12125550100');
    expect(telHref('030 1234 5678')).toBe('tel:03012345678');
    // a phone link: tel: in E.164, +1 added for a North American number
    expect(normalizeProfileLink('phone', '(212) 555-0100')).toEqual({ url: 'tel:+12125550100' });
    expect(normalizeProfileLink('phone', 'tel:2125550100')).toEqual({ url: 'tel:+12125550100' });
    expect(normalizeProfileLink('phone', '030 1234 5678')).toEqual({ error: 'Please enter a valid phone number' });
  });
});

describe('profile saves store E.164', () => {
  it('POST, PUT and the designer save store the number (and a phone link) in E.164', async () => {
    const { agent } = await signedInAgent(t.app);
    const made = await agent.post('/api/profile', form({ phoneNumber: '(212) 555-0100', links: [{ linkType: 'phone', url: '212.555.0111' }] }));
    expect(made.statusCode).toBe(201);
    const p = made.json();
    expect(p.phoneNumber).toBe('+12125550100');
    expect(p.links.map((l: any) => l.url)).toEqual(['tel:+12125550111']);
    const row = await storedRow(p.id);
    expect(row.phoneNumber).toBe('+12125550100');
    const [link] = await t.app.ctx.db.select().from(profileLinks).where(eq(profileLinks.profileId, p.id));
    expect(link!.url).toBe('tel:+12125550111');

    const put = await agent.put(`/api/profile/${p.id}`, form({ phoneNumber: '+44 20 7946 0958', links: [] }));
    expect(put.statusCode).toBe(200);
    expect((await storedRow(p.id)).phoneNumber).toBe('+442079460958');

    const designer = await agent.put('/api/profile', { phoneNumber: '1-646-555-0199' });
    expect(designer.statusCode).toBe(200);
    expect((await storedRow(p.id)).phoneNumber).toBe('+16465550199');
  });

  it('refuses a number it cannot read as one with a 400 field message, and writes nothing', async () => {
    const { agent } = await signedInAgent(t.app);
    const made = (await agent.post('/api/profile', form({ phoneNumber: '+1 212 555 0100' }))).json();
    const before = await storedRow(made.id);
    for (const bad of ['030 1234 5678', '555 0100', '212 555 0100 ext 4', '+1 123 555 0100']) {
      const res = await agent.put(`/api/profile/${made.id}`, form({ phoneNumber: bad }));
      expect(res.statusCode, bad).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json().errors).toEqual({ phoneNumber: 'Please enter a valid phone number' });
      const link = await agent.put(`/api/profile/${made.id}`, form({ phoneNumber: null, links: [{ linkType: 'phone', url: bad }] }));
      expect(link.statusCode, bad).toBe(400);
      expect(link.json().errors).toEqual({ 'links.0.url': 'Please enter a valid phone number' });
    }
    const designer = await agent.put('/api/profile', { phoneNumber: '555 0100' });
    expect(designer.statusCode).toBe(400);
    expect(designer.json().errors).toEqual({ phoneNumber: 'Please enter a valid phone number' });
    const first = await signedInAgent(t.app);
    const none = await first.agent.post('/api/profile', form({ phoneNumber: '030 1234 5678' }));
    expect(none.statusCode).toBe(400);
    expect((await first.agent.get('/api/profile')).json()).toBeNull();
    expect(await storedRow(made.id)).toEqual(before);
  });
});

describe('people see the number readable; tel: and the contact file use E.164', () => {
  it('the public page shows +1 212-555-0100 and dials tel:+12125550100', async () => {
    const { agent } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', form({ phoneNumber: '212 555 0100', links: [{ linkType: 'phone', url: '(646) 555-0111' }] }))).json();
    const html = (await agent.get(`/p/${p.id}`)).body as string;
    expect(html).toContain('href="tel:+12125550100"');
    expect(html).toContain('>+1 212-555-0100<');
    const vcf = (await agent.get(`/api/vcard/${p.id}`)).body as string;
    expect(vcf).toMatch(/\r\nTEL;[^:]*:\+12125550100\r\n/);
    // the phone link's counted hop goes to its E.164 number
    const hop = await agent.get(`/p/${p.id}/go/${p.links[0].id}`);
    expect(hop.statusCode).toBe(302);
    expect(hop.headers.location).toBe('tel:+16465550111');
  });

  it('a number saved before (as typed) is read as E.164 by the API, the page and the contact file; one it cannot read is shown as saved', async () => {
    const { agent } = await signedInAgent(t.app);
    const p = (await agent.post('/api/profile', form())).json();
    // rows written before numbers were stored in E.164
    await t.app.ctx.db.update(profiles).set({ phoneNumber: '(212) 555-0100' }).where(eq(profiles.id, p.id));
    await t.app.ctx.db.insert(profileLinks).values({ profileId: p.id, linkType: 'phone', url: 'tel:2125550111', position: 0 });
    const own = (await agent.get('/api/profile')).json();
    expect(own.phoneNumber).toBe('+12125550100');
    expect(own.links.map((l: any) => l.url)).toEqual(['tel:+12125550111']);
    // sending the form back as the editor shows it saves without a change of meaning
    const again = await agent.put(`/api/profile/${p.id}`, form({ phoneNumber: '+1 212-555-0100', links: [{ id: own.links[0].id, linkType: 'phone', url: '+1 212-555-0111' }] }));
    expect(again.statusCode).toBe(200);
    expect((await storedRow(p.id)).phoneNumber).toBe('+12125550100');

    // a number the company directory keeps in sync, saved as typed, is not a change when sent back in E.164
    const synced = { ...(await storedRow(p.id)), phoneNumber: '(212) 555-0100' } as ProfileRow;
    expect(() => refuseSyncedChanges(synced, { phoneNumber: '+12125550100' }, ['phoneNumber'])).not.toThrow();
    expect(() => refuseSyncedChanges(synced, { phoneNumber: '+12125550199' }, ['phoneNumber'])).toThrow();

    const older = await signedInAgent(t.app);
    const q = (await older.agent.post('/api/profile', form())).json();
    await t.app.ctx.db.update(profiles).set({ phoneNumber: '030 1234 5678' }).where(eq(profiles.id, q.id));
    const pub = (await agent.get(`/api/p/${q.id}`)).json();
    expect(pub.phoneNumber).toBe('030 1234 5678');
    const html = (await agent.get(`/p/${q.id}`)).body as string;
    expect(html).toContain('href="tel:03012345678"');
    expect(html).toContain('>030 1234 5678<');
  });
});

describe('profiles made by other ways in store E.164 too', () => {
  it("an invitation's number becomes the member's in E.164; one that cannot be read is left out, the profile is made", async () => {
    const owner = await signedInAgent(t.app);
    expect((await owner.agent.post('/api/team', { name: 'Phone Co' })).statusCode).toBe(201);
    const invited = [
      { email: 'nan.american@example.com', fullName: 'Nan American', phone: '(212) 555-0100' },
      { email: 'otto.berlin@example.com', fullName: 'Otto Berlin', phone: '030 1234 5678' },
    ];
    expect((await owner.agent.post('/api/team/invites', { invites: invited.map((i) => ({ ...i, role: 'member' })) })).statusCode).toBe(201);
    for (const [i, want] of [[invited[0]!, '+12125550100'], [invited[1]!, null]] as const) {
      const [mail] = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, i.email), like(outbox.dedupeKey, 'team-invite:%')));
      const token = /\/team\/join\/([A-Za-z0-9_-]+)/.exec(mail!.textBody)![1];
      const joined = await new Agent(t.app).post(`/api/team/join/${token}/account`, { password: 'a-good-long-password-7' });
      expect(joined.statusCode, joined.body).toBe(201);
      const [u] = await t.app.ctx.db.select().from(users).where(eq(users.email, i.email));
      const [p] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, u!.id));
      expect(p, i.email).toMatchObject({ fullName: i.fullName, phoneNumber: want });
    }
  });
});
