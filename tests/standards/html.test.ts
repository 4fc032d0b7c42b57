import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent, verifiedAgent } from '#tests/helpers/factories';
import { insertProfile } from '#tests/helpers/admin-factories';
import { multipartBody } from '#tests/helpers/multipart';
import { htmlProblems } from '#tests/helpers/html-validator';
import { outbox, profiles } from '#server/db/schema/index';
import { renderEmail } from '#server/infra/mail/layout';
import { PROFILE_LAYOUTS } from '#shared/schemas/profile';
import { profileLeadsPath, profileThanksPath, publicProfilePath } from '#shared/routes';

/**
 * Issue 36: the HTML we serve and send passes html-validate (recommended preset,
 * tests/helpers/html-validator.ts): the server-rendered profile page in all five layouts and its
 * no-JavaScript form pages, the API reference page, and every e-mail the app wrote to its outbox
 * while the test drove the flows that send them. (The SPA's rendered pages and the prerendered
 * home page are validated in tests/e2e/a11y-*.e2e.ts, in a browser, on the accessibility walk.)
 */

let t: TestApp;
const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  for (const layout of PROFILE_LAYOUTS) {
    const { user } = await signedInAgent(t.app);
    const p = await insertProfile(t.app, user.id, { fullName: `Zoë Łukasz-Müller & Söhne <${layout}>`, email: `${layout}@example.com`, jobTitle: 'Head of "Quotes"' });
    // a lower-case id, as the server makes them (the page route takes only [a-z0-9])
    const id = `${layout}${p.id.toLowerCase()}`.replace(/[^a-z0-9]/g, '');
    await t.app.ctx.db.update(profiles).set({ id, profileTemplate: layout, phoneNumber: '+1 212 555 0100', companyName: 'Müller & Söhne, Inc.', address: '1 Main St\nNew York, NY' }).where(eq(profiles.id, p.id));
    ids[layout] = id;
  }
});
afterAll(async () => {
  await t?.close();
});

async function page(url: string, expectStatus = 200, headers: Record<string, string> = {}): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, url).toBe(expectStatus);
  expect(res.headers['content-type'], url).toMatch(/^text\/html/);
  return res.body;
}

describe('HTML (html-validate, recommended preset)', () => {
  it('the validator finds errors in broken HTML (a heading in a heading, a duplicate id, no lang)', async () => {
    const broken = '<!doctype html><html><head><title>x</title></head><body><h3><h1>A</h1></h3><p id="a"></p><p id="a"></p></body></html>';
    const found = (await htmlProblems(broken, 'probe')).join('\n');
    expect(found).toMatch(/element-permitted-content/);
    expect(found).toMatch(/no-dup-id/);
    expect(found).toMatch(/element-required-attributes|lang/);
  });

  it('the public profile page in all five layouts, its not-found page and its no-JavaScript form pages', async () => {
    const problems: string[] = [];
    for (const layout of PROFILE_LAYOUTS) problems.push(...(await htmlProblems(await page(publicProfilePath(ids[layout]!)), `/p/{id} ${layout}`)));
    problems.push(...(await htmlProblems(await page(publicProfilePath('zzzzzzzz'), 404), '/p/{unknown}')));
    problems.push(...(await htmlProblems(await page(profileThanksPath(ids.classic!)), '/p/{id}/thanks')));
    // the plain form sent with a field to fix: the page that shows what to fix
    const form = multipartBody('name', Buffer.from(''), { fields: { email: 'not-an-email', consent: 'on' } });
    const res = await t.app.inject({ method: 'POST', url: profileLeadsPath(ids.classic!), payload: form.payload, headers: { ...form.headers, accept: 'text/html', host: 'cards.example', origin: 'http://cards.example' } });
    expect(res.headers['content-type'], res.body).toMatch(/^text\/html/);
    problems.push(...(await htmlProblems(res.body, 'lead form with errors')));
    expect(problems).toEqual([]);
  });

  it('the API reference page', async () => {
    expect(await htmlProblems(await page('/api/docs'), '/api/docs')).toEqual([]);
  });

  it('every e-mail the app sends (each kind, written to the outbox by the real flows), and the layout with every part', async () => {
    const { agent, input } = await verifiedAgent(t.app);
    const owner = agent;
    // a verification e-mail (sign-up), a password reset, an address change, a password change
    await signedInAgent(t.app);
    await owner.post('/api/auth/forgot-password', { email: input.email });
    await owner.post('/api/account/email', { newEmail: `new-${Date.now()}@example.com`, currentPassword: input.password });
    await owner.post('/api/account/password', { currentPassword: input.password, newPassword: `${input.password}-2`, confirmPassword: `${input.password}-2` });
    const password = `${input.password}-2`;
    // a token (the owner is told), a lead (the owner is told), an order (confirmation + staff notice)
    await owner.post('/api/tokens', { name: 'Script', scopes: ['leads:read'], expiresInDays: 30, team: false, password });
    const [profile] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.id, ids.classic!));
    await t.app.inject({ method: 'POST', url: profileLeadsPath(profile!.id), payload: { name: 'Ada Lovelace', email: 'ada@example.com', consent: true } });
    await owner.post('/api/team', { name: 'Müller & Söhne', companyName: 'Müller & Söhne, Inc.' });
    await owner.post('/api/team/invites', { invites: [{ email: 'member@example.com', fullName: 'Zoë Łukasz' }] });
    const rows = await t.app.ctx.db.select({ kind: outbox.kind, subject: outbox.subject, html: outbox.htmlBody }).from(outbox);
    const kinds = new Set(rows.map((r) => r.kind));
    expect(kinds.size, [...kinds].join(', ')).toBeGreaterThanOrEqual(5);
    const problems: string[] = [];
    for (const r of rows) problems.push(...(await htmlProblems(r.html, `e-mail ${r.kind}`, 'email')));
    // every e-mail is made by the one layout: all of its parts at once, with text that needs escaping
    const all = renderEmail({
      preheader: 'Ready <soon> & "quoted"',
      heading: 'Zoë Łukasz-Müller & Söhne',
      paragraphs: ['One <b>not bold</b>', 'Two'],
      rows: [['Card', 'Metal & "Gold"']],
      button: { label: 'Open', url: 'https://example.com/a?b=1&c=2' },
      footer: 'Footer',
    });
    problems.push(...(await htmlProblems(all.html, 'e-mail layout', 'email')));
    expect(problems).toEqual([]);
    for (const r of rows) expect(r.html, r.kind).toMatch(/<html lang="en">/);
  });
});
