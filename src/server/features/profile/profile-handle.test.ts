import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { profiles } from '#server/db/schema/profile';
import { HANDLE_MESSAGES, handleProblem, handleSkeleton } from '#shared/profile/handle';

/** Issue 37 item 1: the handle, /@{handle} beside the permanent /p/{id} (decision 37-04). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const unique = (stem: string) => `${stem}${Date.now().toString(36)}${n++}`.slice(0, 30);

async function withProfile(fullName = 'Ada Lovelace') {
  const { agent } = await signedInAgent(t.app);
  const created = await agent.post('/api/profile', { fullName });
  expect(created.statusCode).toBe(201);
  return { agent, id: created.json().id as string };
}

describe('handle rules', () => {
  it('says what is wrong: length, characters, reserved and confusable names', () => {
    expect(handleProblem('ab')).toBe(HANDLE_MESSAGES.length);
    expect(handleProblem('a'.repeat(31))).toBe(HANDLE_MESSAGES.length);
    expect(handleProblem('ada lovelace')).toBe(HANDLE_MESSAGES.chars);
    expect(handleProblem('-ada')).toBe(HANDLE_MESSAGES.chars);
    expect(handleProblem('ada--l')).toBe(HANDLE_MESSAGES.chars);
    expect(handleProblem('ada.l')).toBe(HANDLE_MESSAGES.chars);
    expect(handleProblem('adä')).toBe(HANDLE_MESSAGES.chars);
    for (const h of ['admin', 'Adm1n', 'api', 'login', 'privacy', 'support-team', 'the_official', 'metalcardsnyc', 'react-refresh', 'vite']) {
      expect(handleProblem(h), h).toBe(HANDLE_MESSAGES.reserved);
    }
    expect(handleProblem('@Ada_Lovelace-1')).toBeNull();
    expect(handleSkeleton('J0hn-Doe')).toBe(handleSkeleton('john_doe'));
    expect(handleSkeleton('rnary')).toBe(handleSkeleton('mary'));
  });
});

describe('PUT /api/profile/handle and GET /@{handle}', () => {
  it('serves the profile at its handle (any case), keeps /p/{id}, and answers 404 for unknown handles', async () => {
    const { agent, id } = await withProfile();
    const handle = unique('ada');
    const res = await agent.put('/api/profile/handle', { handle: `@${handle.toUpperCase()}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, handle });
    expect((await agent.get('/api/profile')).json().handle).toBe(handle);

    const page = await t.app.inject({ method: 'GET', url: `/@${handle}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Ada Lovelace');
    // the permanent address stays the canonical one (printed cards and QR codes use it)
    expect(page.body).toContain(`/p/${id}"`);
    expect((await t.app.inject({ method: 'GET', url: `/@${handle.toUpperCase()}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/p/${id}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/p/${id}` })).json().handle).toBe(handle);

    for (const url of ['/@nobody-has-this-one', '/@', '/@a%20b', `/@${'x'.repeat(200)}`, '/@%00']) {
      const miss = await t.app.inject({ method: 'GET', url });
      expect(miss.statusCode, url).toBe(404);
      expect(miss.headers['content-type'], url).toContain('text/html');
    }
  });

  it('refuses bad, reserved, taken and look-alike handles with the message on the field, writing nothing', async () => {
    const a = await withProfile('Ann One');
    const b = await withProfile('Bob Two');
    const handle = unique('john');
    expect((await a.agent.put('/api/profile/handle', { handle })).statusCode).toBe(200);
    const cases: Array<[unknown, number, string]> = [
      ['x', 400, HANDLE_MESSAGES.length],
      ['bob two', 400, HANDLE_MESSAGES.chars],
      ['Admin', 400, HANDLE_MESSAGES.reserved],
      [handle.toUpperCase(), 409, HANDLE_MESSAGES.taken],
      [handle.replace('o', '0'), 409, HANDLE_MESSAGES.taken],
      [`${handle.slice(0, 2)}-${handle.slice(2)}`, 409, HANDLE_MESSAGES.taken],
      [42, 400, HANDLE_MESSAGES.chars],
    ];
    for (const [sent, status, message] of cases) {
      const res = await b.agent.put('/api/profile/handle', { handle: sent });
      expect(res.statusCode, String(sent)).toBe(status);
      expect(res.json().errors?.handle, String(sent)).toBe(message);
    }
    expect((await b.agent.put('/api/profile/handle', { handle: 'ok-handle', extra: 1 })).statusCode).toBe(400);
    expect((await b.agent.get('/api/profile')).json().handle).toBeNull();
    // no profile yet: a clear 404, nothing written
    const { agent: none } = await signedInAgent(t.app);
    const res = await none.put('/api/profile/handle', { handle: unique('nobody') });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(HANDLE_MESSAGES.noProfile);
    // signed out
    expect((await t.app.inject({ method: 'PUT', url: '/api/profile/handle', payload: { handle: unique('anon') } })).statusCode).toBe(401);
  });

  it('a changed handle redirects to the new one for a while, is held from others meanwhile, then is free', async () => {
    const a = await withProfile('Ann One');
    const b = await withProfile('Bob Two');
    const first = unique('first');
    const second = unique('second');
    expect((await a.agent.put('/api/profile/handle', { handle: first })).statusCode).toBe(200);
    expect((await a.agent.put('/api/profile/handle', { handle: second })).statusCode).toBe(200);

    const old = await t.app.inject({ method: 'GET', url: `/@${first}` });
    expect(old.statusCode).toBe(302);
    expect(old.headers.location).toBe(`/@${second}`);
    expect((await t.app.inject({ method: 'GET', url: `/@${second}` })).statusCode).toBe(200);

    // someone else cannot take the old one while it redirects
    const held = await b.agent.put('/api/profile/handle', { handle: first });
    expect(held.statusCode).toBe(409);
    expect(held.json().errors.handle).toBe(HANDLE_MESSAGES.taken);

    // removing the handle: the last one redirects to the permanent address
    expect((await a.agent.put('/api/profile/handle', { handle: null })).json().handle).toBeNull();
    const gone = await t.app.inject({ method: 'GET', url: `/@${second}` });
    expect(gone.statusCode).toBe(302);
    expect(gone.headers.location).toBe(`/p/${a.id}`);

    // once the redirect has run out, anyone may take it
    await t.app.ctx.db.update(profiles).set({ previousHandleUntil: new Date(Date.now() - 1000) }).where(eq(profiles.id, a.id));
    expect((await t.app.inject({ method: 'GET', url: `/@${second}` })).statusCode).toBe(404);
    const taken = await b.agent.put('/api/profile/handle', { handle: second });
    expect(taken.statusCode).toBe(200);
    const now = await t.app.inject({ method: 'GET', url: `/@${second}` });
    expect(now.statusCode).toBe(200);
    expect(now.body).toContain('Bob Two');
  });

  it('going back to the handle just left makes it current again', async () => {
    const a = await withProfile();
    const one = unique('one');
    const two = unique('two');
    await a.agent.put('/api/profile/handle', { handle: one });
    await a.agent.put('/api/profile/handle', { handle: two });
    expect((await a.agent.put('/api/profile/handle', { handle: one })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/@${one}` })).statusCode).toBe(200);
    const back = await t.app.inject({ method: 'GET', url: `/@${two}` });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(`/@${one}`);
  });
});

describe('Twitter is shown as X (issue 37), stored values unchanged', () => {
  it('the page, the JSON and the contact file say X; the stored type stays "twitter"', async () => {
    const { agent } = await signedInAgent(t.app);
    const created = await agent.post('/api/profile', { fullName: 'Grace Hopper', links: [{ linkType: 'twitter', url: '@grace' }] });
    expect(created.statusCode).toBe(201);
    const { id, links } = created.json();
    expect(links[0]).toMatchObject({ linkType: 'twitter', url: 'https://x.com/grace', label: null });
    const page = await t.app.inject({ method: 'GET', url: `/p/${id}` });
    expect(page.body).toContain('<span>X</span>');
    expect(page.body).not.toMatch(/>Twitter</);
    const vcard = await t.app.inject({ method: 'GET', url: `/api/vcard/${id}` });
    expect(vcard.body).toMatch(/X-ABLabel:X\r?\n/);
    expect(vcard.body).not.toContain('Twitter');
  });
});

describe("a team member's page shows the team logo in every layout (issue 37)", () => {
  it('the logo is in the header of all five layouts when the page carries a team brand', async () => {
    const { renderProfilePage } = await import('./public-profile.page');
    const { PROFILE_LAYOUTS } = await import('#shared/schemas/profile');
    for (const layout of PROFILE_LAYOUTS) {
      const html = renderProfilePage(
        {
          id: 'abcd2345ef',
          handle: null,
          fullName: 'Mia Member',
          jobTitle: null,
          email: null,
          phoneNumber: null,
          address: null,
          companyName: 'Northwind Trading',
          profileTemplate: layout,
          customPhotoUrl: null,
          logoUrl: '/files/logos/team.png',
          bannerLogoUrl: '/files/logos/team.png',
          links: [],
          brand: { teamName: 'Northwind', primaryColor: '#0b3d2e', accentColor: '#7a1f1f' },
        },
        { origin: 'https://cards.example', preview: false },
      );
      expect(html, layout).toMatch(/<div class="pp-header"><img class="pp-header-logo" src="\/files\/logos\/team.png"/);
    }
  });
});
