import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { startSmtpServer, waitFor, type TestSmtpServer } from '#tests/helpers/smtp-server';
import { files, orders, outbox, profileLinks, profiles, teamMembers, teams } from '#server/db/schema/index';
import { LOCKED_FIELD_MESSAGE, WEBSITE_LOCK_LINK_MESSAGE, linkAllowedUnderWebsiteLock } from '#shared/team/brand';
import { TemplateCustomizeBody } from '#shared/schemas/templates';
import { DesignProfile } from '#shared/schemas/designs';
import { invalidatePublicProfile } from '#server/features/profile/public-profile.cache';

/**
 * Issue 33, second part (decision 33-03): idempotency keys belong to their caller, the brand lock
 * covers what the page shows, one-time links are not stored readable, the designer's link fields
 * are normalised like profile links. Each test fails on the code before the fix.
 */

const ORIGIN = 'https://cards.example.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.app.ctx.db;
let ipSeq = 0;
const newIp = () => `10.33.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

function postOrder(body: unknown, opts: { headers?: Record<string, string>; ip?: string; agent?: Agent } = {}) {
  if (opts.agent) return opts.agent.post('/api/order', body, opts.headers);
  return t.app.inject({
    method: 'POST',
    url: '/api/order',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...opts.headers },
    remoteAddress: opts.ip ?? newIp(),
  });
}

/** Nothing of the first order in an answer: not its id, status link or anything that names it. */
function expectNothingOf(first: { orderId: number; statusUrl: string }, answer: { statusCode: number; body: string }) {
  expect([201, 409, 422]).toContain(answer.statusCode);
  expect(answer.body).not.toContain(first.statusUrl);
  expect(answer.body).not.toContain(first.statusUrl.split('/').pop()!);
  if (answer.statusCode === 201) expect(JSON.parse(answer.body).orderId).not.toBe(first.orderId);
}

describe('idempotency keys belong to their caller', () => {
  it('signed in: account B replaying account A key (same order content) makes its own order; A retry answers A order', async () => {
    const a = await signedInAgent(t.app);
    const b = await signedInAgent(t.app);
    const key = crypto.randomUUID();
    const input = orderInput();
    const first = await postOrder(input, { agent: a.agent, headers: { 'idempotency-key': key } });
    expect(first.statusCode, first.body).toBe(201);
    const replay = await postOrder(input, { agent: b.agent, headers: { 'idempotency-key': key } });
    expectNothingOf(first.json(), replay);
    const again = await postOrder(input, { agent: a.agent, headers: { 'idempotency-key': key } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ orderId: first.json().orderId, replayed: true, statusUrl: first.json().statusUrl });
  });

  it('signed out: another visitor (another form session, or another address) gets nothing; the same form session gets its own order back', async () => {
    const key = crypto.randomUUID();
    const input = orderInput();
    const session = crypto.randomBytes(24).toString('hex');
    const ip = newIp();
    const first = await postOrder(input, { headers: { 'idempotency-key': key, 'x-form-session': session }, ip });
    expect(first.statusCode, first.body).toBe(201);
    // the same page retrying, even from another network, answers the same order
    const retry = await postOrder(input, { headers: { 'idempotency-key': key, 'x-form-session': session }, ip: newIp() });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ orderId: first.json().orderId, replayed: true });
    // another visitor's page, from the same address or another
    const others: { headers: Record<string, string>; ip: string }[] = [
      { headers: { 'idempotency-key': key, 'x-form-session': crypto.randomBytes(24).toString('hex') }, ip },
      { headers: { 'idempotency-key': key }, ip: newIp() },
      { headers: { 'idempotency-key': key }, ip },
    ];
    for (const other of others) expectNothingOf(first.json(), await postOrder(input, other));
    // a client without a form session retries from its address
    const k2 = crypto.randomUUID();
    const ip2 = newIp();
    const one = await postOrder(input, { headers: { 'idempotency-key': k2 }, ip: ip2 });
    const two = await postOrder(input, { headers: { 'idempotency-key': k2 }, ip: ip2 });
    expect([one.statusCode, two.statusCode]).toEqual([201, 200]);
    expect(two.json().orderId).toBe(one.json().orderId);
    expectNothingOf(one.json(), await postOrder(input, { headers: { 'idempotency-key': k2 }, ip: newIp() }));
    // a visitor's key is not an account's either
    const someone = await signedInAgent(t.app);
    expectNothingOf(one.json(), await postOrder(input, { agent: someone.agent, headers: { 'idempotency-key': k2 } }));
    // a bad form session is a 400 naming it, and nothing is written
    const before = await db().select({ n: sql<number>`count(*)::int` }).from(orders);
    const bad = await postOrder(input, { headers: { 'idempotency-key': crypto.randomUUID(), 'x-form-session': 'short' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('formSession');
    expect((await db().select({ n: sql<number>`count(*)::int` }).from(orders))[0].n).toBe(before[0].n);
  });

  it('team keys live in the team space: a user replaying a team order key (also as "team:<key>") gets nothing of it', async () => {
    const owner = await signedInAgent(t.app);
    expect((await owner.agent.post('/api/team', { name: 'Keys Team', companyName: 'Keys Co' })).statusCode).toBe(201);
    const made = await owner.agent.post('/api/profile', {
      fullName: 'Olive Owner',
      jobTitle: null,
      email: owner.user.email,
      phoneNumber: null,
      address: null,
      companyName: null,
      profileTemplate: 'classic',
      customPhotoUrl: null,
      logoUrl: null,
      bannerLogoUrl: null,
      links: [],
      deleteLinks: [],
    });
    expect(made.statusCode, made.body).toBe(201);
    const key = crypto.randomUUID();
    const body = { members: [{ userId: owner.user.id, quantity: 100 }], cardType: 'standard', cardStyle: 'Matte', deliveryOption: 'standard', shippingAddress: { name: 'Front Desk', line1: '1 Main St', city: 'New York', state: 'NY', postalCode: '10001' }, clientToken: key };
    const placed = await owner.agent.post('/api/team/orders', body);
    expect(placed.statusCode, placed.body).toBe(201);
    const [row] = await db().select().from(orders).where(eq(orders.id, placed.json().orderId));
    const first = { orderId: row.id, statusUrl: `${ORIGIN}/order-status/${row.statusToken}` };
    // the same team's retry answers its order
    const again = await owner.agent.post('/api/team/orders', body);
    expect(again.statusCode).toBe(200);
    expect(again.json().orderId).toBe(row.id);
    // the order form with the team order's content, by another account, the admin, or a visitor
    const input = orderInput({ customerName: row.customerName, email: row.email, quantity: row.quantity, cardType: row.cardType, cardStyle: row.cardStyle, deliveryOption: row.deliveryOption });
    const stranger = await signedInAgent(t.app);
    for (const k of [key, `team:${key}`]) {
      expectNothingOf(first, await postOrder(input, { agent: stranger.agent, headers: { 'idempotency-key': k } }));
      expectNothingOf(first, await postOrder(input, { agent: owner.agent, headers: { 'idempotency-key': k } }));
      expectNothingOf(first, await postOrder(input, { headers: { 'idempotency-key': k } }));
    }
  });

  it('the team page makes its order keys with crypto, never from the clock or Math.random', () => {
    const file = path.join(process.cwd(), 'src/web/features/team/components/cards-tab.tsx');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toMatch(/Math\.random|Date\.now/);
    expect(text).toMatch(/crypto\.randomUUID\(\)/);
    expect(text).toMatch(/useState\(newOrderKey\)/);
    // the order page sends its own form session with the key
    const api = fs.readFileSync(path.join(process.cwd(), 'src/web/features/orders/api.ts'), 'utf8');
    expect(api).toMatch(/'X-Form-Session': formSession/);
  });
});

/** A team (owner signed in) whose brand locks `lockedFields`, and a member with a profile. */
async function lockedTeam(lockedFields: string[]) {
  const owner = await signedInAgent(t.app);
  const made = await owner.agent.post('/api/team', { name: 'Lock Co', companyName: 'Lock Co', website: 'https://www.lockco.test' });
  expect(made.statusCode, made.body).toBe(201);
  const [m] = await db().select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, owner.user.id));
  const teamLogo = `/files/uploads/team-logo-${crypto.randomUUID()}.png`;
  await db()
    .update(teams)
    .set({ brand: { logoUrl: teamLogo, primaryColor: '#123456', accentColor: '#7a1f1f', profileLayout: null, templateId: null, lockedFields } })
    .where(eq(teams.id, m.teamId));
  const member = await signedInAgent(t.app);
  await db().insert(teamMembers).values({ teamId: m.teamId, userId: member.user.id, role: 'member' });
  const own = async (name: string) => {
    const key = `uploads/${name}-${crypto.randomUUID()}.png`;
    await db().insert(files).values({ userId: member.user.id, kind: 'image', key, mimeType: 'image/png', size: 100 });
    return `/files/${key}`;
  };
  const banner = await own('banner');
  const created = await member.agent.post('/api/profile', {
    fullName: 'Lee Member',
    jobTitle: null,
    email: member.user.email,
    phoneNumber: null,
    address: null,
    companyName: null,
    profileTemplate: 'classic',
    customPhotoUrl: null,
    logoUrl: null,
    bannerLogoUrl: null,
    links: [],
    deleteLinks: [],
  });
  expect(created.statusCode, created.body).toBe(201);
  const profileId = created.json().id as string;
  return { owner, member, teamId: m.teamId, teamLogo, banner, own, profileId };
}

function profileBody(p: Record<string, unknown>, over: Record<string, unknown> = {}) {
  const { fullName, jobTitle, email, phoneNumber, address, companyName, profileTemplate, customPhotoUrl, logoUrl, bannerLogoUrl } = p;
  return { fullName, jobTitle, email, phoneNumber, address, companyName, profileTemplate, customPhotoUrl, logoUrl, bannerLogoUrl, links: [], deleteLinks: [], ...over };
}

describe('the brand lock covers what the page shows', () => {
  it('under a logo lock the classic and modern headers show the team logo, never the member banner; a new banner is refused', async () => {
    const s = await lockedTeam(['logoUrl']);
    // a banner the member had before the lock
    await db().update(profiles).set({ bannerLogoUrl: s.banner }).where(eq(profiles.id, s.profileId));
    for (const layout of ['classic', 'modern']) {
      await db().update(profiles).set({ profileTemplate: layout, updatedAt: new Date() }).where(eq(profiles.id, s.profileId));
      invalidatePublicProfile(t.app.ctx, s.profileId);
      const page = await t.app.inject({ method: 'GET', url: `/p/${s.profileId}?src=link&v=${layout}` });
      expect(page.statusCode).toBe(200);
      const header = /<img class="pp-header-logo" src="([^"]+)"/.exec(page.body);
      expect(header?.[1], `${layout} header`).toBe(s.teamLogo);
      expect(page.body).not.toContain(s.banner);
    }
    const current = (await s.member.agent.get('/api/profile')).json();
    const other = await s.own('banner2');
    const refused = await s.member.agent.put(`/api/profile/${s.profileId}`, profileBody(current, { bannerLogoUrl: other }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toMatchObject({ bannerLogoUrl: LOCKED_FIELD_MESSAGE });
    const designer = await s.member.agent.put('/api/profile', { bannerLogoUrl: other });
    expect(designer.statusCode).toBe(400);
    expect(designer.json().errors).toMatchObject({ bannerLogoUrl: LOCKED_FIELD_MESSAGE });
    // without the lock the member's banner is theirs to choose
    await db().update(teams).set({ brand: { logoUrl: s.teamLogo, lockedFields: [] } }).where(eq(teams.id, s.teamId));
    const free = await s.member.agent.put(`/api/profile/${s.profileId}`, profileBody(current, { bannerLogoUrl: other }));
    expect(free.statusCode, free.body).toBe(200);
  });

  it('under a website lock no link type carries another site: `other`, `website`, a social type pointing elsewhere are refused; the team site and own networks pass', async () => {
    const s = await lockedTeam(['website']);
    const current = (await s.member.agent.get('/api/profile')).json();
    const put = (links: { linkType: string; url: string }[]) => s.member.agent.put(`/api/profile/${s.profileId}`, profileBody(current, { links }));
    for (const link of [
      { linkType: 'other', url: 'https://my-own-site.test' },
      { linkType: 'other', url: 'https://my-own-site.test/about' },
      { linkType: 'linkedin', url: 'https://my-own-site.test' },
      { linkType: 'github', url: 'https://me.github.io' },
      { linkType: 'twitter', url: 'https://x.com.my-own-site.test/me' },
      { linkType: 'other', url: 'https://lockco.test.evil.test' },
    ]) {
      const res = await put([link]);
      expect(res.statusCode, `${link.linkType} ${link.url}`).toBe(400);
      expect(res.json().errors).toMatchObject({ 'links.0.url': WEBSITE_LOCK_LINK_MESSAGE });
    }
    const site = await put([{ linkType: 'website', url: 'https://my-own-site.test' }]);
    expect(site.statusCode).toBe(400);
    expect(site.json().errors).toMatchObject({ website: LOCKED_FIELD_MESSAGE });
    const designer = await s.member.agent.put('/api/profile', { linkedinUrl: 'https://my-own-site.test' });
    expect(designer.statusCode).toBe(400);
    expect(designer.json().errors).toMatchObject({ linkedinUrl: WEBSITE_LOCK_LINK_MESSAGE });
    // nothing was written
    expect(await db().select().from(profileLinks).where(eq(profileLinks.profileId, s.profileId))).toEqual([]);

    const ok = await put([
      { linkType: 'linkedin', url: 'https://www.linkedin.com/in/lee' },
      { linkType: 'other', url: 'https://shop.lockco.test/lee' },
      { linkType: 'twitter', url: 'https://x.com/lee' },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);

    // a link saved before the lock is not shown while the website is locked
    await db().insert(profileLinks).values({ profileId: s.profileId, linkType: 'other', url: 'https://my-own-site.test', position: 9 });
    await db().update(profiles).set({ updatedAt: new Date() }).where(eq(profiles.id, s.profileId));
    invalidatePublicProfile(t.app.ctx, s.profileId);
    const page = await t.app.inject({ method: 'GET', url: `/p/${s.profileId}?v=lock` });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('my-own-site.test');
    // every link hop of the page: the team site and the allowed links, never the member's own site
    const targets: string[] = [];
    for (let i = 0; i < 6; i++) {
      const hop = await t.app.inject({ method: 'GET', url: `/p/${s.profileId}/go/${i}` });
      if (hop.statusCode >= 300 && hop.statusCode < 400) targets.push(String(hop.headers.location));
    }
    expect(targets).toContain('https://www.lockco.test');
    expect(targets).toContain('https://shop.lockco.test/lee');
    expect(targets.filter((u) => u.includes('my-own-site'))).toEqual([]);
  });
});

describe('the website lock rule, for generated hosts', () => {
  it('a link passes only on the team host (or a subdomain) or its own network: look-alike hosts never pass', () => {
    const label = fc.stringMatching(/^[a-z0-9]{1,12}$/);
    const types = fc.constantFrom('website', 'other', 'linkedin', 'twitter', 'instagram', 'facebook', 'github');
    const team = 'https://www.lockco.test';
    fc.assert(
      fc.property(label, label, types, fc.constantFrom('', 'www.', 'shop.'), (a, b, type, sub) => {
        // the team's own host and its subdomains pass for every type
        expect(linkAllowedUnderWebsiteLock({ linkType: type, url: `https://${sub}lockco.test/${a}` }, team)).toBe(true);
        const net: Record<string, string> = { linkedin: 'linkedin.com', twitter: 'x.com', instagram: 'instagram.com', facebook: 'facebook.com', github: 'github.com' };
        // look-alikes: a suffix, a prefix, the team host as a label of another domain
        for (const host of [`${a}lockco.test`, `lockco.test.${a}.com`, `${a}.lockco.test${b}.com`, `lockco-test.${b}.com`]) {
          if (host === 'lockco.test') continue;
          // a host inside the type's own network is that network, not a look-alike (`lockco.test.x.com` for X)
          if (net[type] && (host === net[type] || host.endsWith(`.${net[type]}`))) continue;
          expect(linkAllowedUnderWebsiteLock({ linkType: type, url: `https://${host}/` }, team), host).toBe(false);
        }
        // a social type passes on its own network only, never on another's
        if (net[type]) {
          expect(linkAllowedUnderWebsiteLock({ linkType: type, url: `https://www.${net[type]}/${a}` }, team)).toBe(true);
          expect(linkAllowedUnderWebsiteLock({ linkType: type, url: `https://${a}${net[type]}/` }, team)).toBe(false);
        } else {
          expect(linkAllowedUnderWebsiteLock({ linkType: type, url: `https://www.linkedin.com/${a}` }, team)).toBe(false);
        }
        // no team website: only social links to their own network
        expect(linkAllowedUnderWebsiteLock({ linkType: 'other', url: `https://${a}.com/` }, null)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('one-time links are not stored readable', () => {
  let server: TestSmtpServer;
  let m: TestApp;
  beforeAll(async () => {
    server = await startSmtpServer();
    m = await createTestApp({ env: { SMTP_URL: server.url, PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off', MAIL_FROM: 'Metal Cards NYC <hello@cards.example.test>' } });
  });
  afterAll(async () => {
    await m?.close();
    await server?.close();
  });

  it('after a reset e-mail is sent, staff reading the outbox see "[password reset link]" and no token; the token in the e-mail still works', async () => {
    const user = await signedInAgent(m.app);
    const staff = await adminAgent(m.app);
    const asked = await new Agent(m.app).post('/api/auth/forgot-password', { email: user.user.email });
    expect(asked.statusCode).toBe(200);
    const mail = await waitFor(() => server.messages.find((x) => x.to.includes(user.user.email) && /reset/i.test(x.subject ?? '')), 'the reset e-mail');
    const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.part('text/plain')!)![1];
    expect(mail.part('text/html')).toContain(`/reset-password?token=${token}`);
    const row = await waitFor(async () => {
      const [r] = await m.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, user.user.email), eq(outbox.kind, 'password-reset')));
      return r?.status === 'sent' ? r : undefined;
    }, 'the reset e-mail marked sent');
    // the stored copy and the staff view keep no usable token
    expect(row.textBody + row.htmlBody).not.toContain(token);
    const seen = await staff.agent.get(`/api/admin/outbox/${row.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.body).not.toContain(token);
    expect(seen.json().textBody).toContain('[password reset link]');
    const list = await staff.agent.get('/api/admin/outbox?page=1&pageSize=50');
    expect(list.body).not.toContain(token);
    // the recipient's link works
    const reset = await new Agent(m.app).post('/api/auth/reset-password', { token, password: 'Brand-new passphrase 33', confirmPassword: 'Brand-new passphrase 33' });
    expect(reset.statusCode, reset.body).toBe(200);
  });

  it('staff never see a one-time link of an e-mail still waiting: reset, verification, claim and invitation links are labels', async () => {
    const staff = await adminAgent(t.app);
    const user = await signedInAgent(t.app);
    await new Agent(t.app).post('/api/auth/forgot-password', { email: user.user.email });
    await postOrder(orderInput({ email: `claim_${crypto.randomUUID()}@example.com` }));
    const owner = await signedInAgent(t.app);
    await owner.agent.post('/api/team', { name: 'Invite Co' });
    await owner.agent.post('/api/team/invites', { invites: [{ email: `inv_${crypto.randomUUID()}@example.com` }] });
    await user.agent.post('/api/auth/verify-email/resend');
    const rows = await db().select().from(outbox).where(eq(outbox.status, 'pending'));
    const secret = /(\/reset-password\?token=|\/confirm-email\?(?:verify|token)=|\/claim\/|\/team\/join\/)([A-Za-z0-9_-]{16,})/;
    const withLinks = rows.filter((r) => secret.test(r.textBody));
    const kinds = new Set(withLinks.map((r) => r.kind));
    for (const k of ['password-reset', 'order-received', 'team-invite']) expect([...kinds].some((x) => x.startsWith(k)), k).toBe(true);
    for (const r of withLinks) {
      const token = secret.exec(r.textBody)![2];
      const seen = await staff.agent.get(`/api/admin/outbox/${r.id}`);
      expect(seen.statusCode).toBe(200);
      expect(seen.body, r.kind).not.toContain(token);
      expect(seen.json().textBody).toMatch(/\[(password reset|verification|e-mail change|order claim|team invitation) link\]/);
    }
  });

  it('sent e-mails are pruned after OUTBOX_KEEP_DAYS; newer ones and waiting ones stay', async () => {
    const p = await createTestApp({ env: { OUTBOX_KEEP_DAYS: '7', RATE_LIMITS: 'off' } });
    try {
      const pdb = p.app.ctx.db;
      const day = 24 * 3600 * 1000;
      const row = (dedupeKey: string, status: string, sentAt: Date | null, createdAt = new Date()) => ({
        dedupeKey,
        kind: 'test',
        toAddress: 'a@example.com',
        subject: 's',
        textBody: 't',
        htmlBody: 'h',
        status,
        sentAt,
        createdAt,
      });
      await pdb.insert(outbox).values([
        row('old-sent', 'sent', new Date(Date.now() - 8 * day), new Date(Date.now() - 8 * day)),
        row('new-sent', 'sent', new Date(Date.now() - 6 * day), new Date(Date.now() - 6 * day)),
        row('old-pending', 'pending', null, new Date(Date.now() - 9 * day)),
        row('old-failed', 'failed', null, new Date(Date.now() - 9 * day)),
      ]);
      expect(p.config.OUTBOX_KEEP_DAYS).toBe(7);
      expect(await p.app.ctx.outbox.prune()).toBe(2);
      const left = (await pdb.select({ k: outbox.dedupeKey }).from(outbox).where(eq(outbox.kind, 'test'))).map((r) => r.k).sort();
      expect(left).toEqual(['new-sent', 'old-pending']);
    } finally {
      await p.close();
    }
  });
});

describe('migration 0019 on rows stored before it', () => {
  it('redacts one-time links of e-mails already sent (waiting ones keep theirs) and moves old team keys into the team scope', async () => {
    const m = await createTestApp({ env: { RATE_LIMITS: 'off' } });
    try {
      const mdb = m.app.ctx.db;
      const tok = 'Abc_def-123456789012345678901234567890abc';
      const text = [
        `Reset: https://x.test/reset-password?token=${tok}`,
        `Verify: https://x.test/confirm-email?verify=${tok}`,
        `Change: https://x.test/confirm-email?token=${tok}`,
        `Claim: https://x.test/claim/${tok}`,
        `Join: https://x.test/team/join/${tok}`,
        'Status: https://x.test/order-status/keepme',
      ].join('\n');
      const html = `<a href="https://x.test/reset-password?token=${tok}">https://x.test/reset-password?token=${tok}</a> <a href="https://x.test/team/join/${tok}">join</a>`;
      await mdb.insert(outbox).values([
        { dedupeKey: 'm-sent', kind: 'k', toAddress: 'a@example.com', subject: 's', textBody: text, htmlBody: html, status: 'sent', sentAt: new Date() },
        { dedupeKey: 'm-pending', kind: 'k', toAddress: 'a@example.com', subject: 's', textBody: text, htmlBody: html, status: 'pending' },
      ]);
      const owner = await signedInAgent(m.app);
      await owner.agent.post('/api/team', { name: 'Old Keys' });
      const [tm] = await mdb.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, owner.user.id));
      const base = { customerName: 'A', email: 'a@example.com', quantity: 100, cardType: 'standard', cardStyle: 'Matte', deliveryOption: 'standard', unitPriceCents: 1, deliveryFeeCents: 0, totalCents: 1, priceSnapshot: {} };
      await mdb.insert(orders).values([
        { ...base, statusToken: `st-${crypto.randomUUID()}`, idempotencyKey: 'team:old-team-key', teamId: tm.teamId, userId: owner.user.id },
        { ...base, statusToken: `st-${crypto.randomUUID()}`, idempotencyKey: 'old-user-key', userId: owner.user.id },
        { ...base, statusToken: `st-${crypto.randomUUID()}`, idempotencyKey: 'old-visitor-key' },
      ]);
      const file = fs.readFileSync(path.join(process.cwd(), 'drizzle/0019_idempotency_scope.sql'), 'utf8');
      for (const stmt of file.split('--> statement-breakpoint')) {
        if (/^\s*(--[^\n]*\n\s*)*UPDATE/i.test(stmt)) await mdb.execute(sql.raw(stmt));
      }
      const rows = await mdb.select().from(outbox).where(like(outbox.dedupeKey, 'm-%'));
      const sent = rows.find((r) => r.dedupeKey === 'm-sent')!;
      const waiting = rows.find((r) => r.dedupeKey === 'm-pending')!;
      expect(sent.textBody + sent.htmlBody).not.toContain(tok);
      expect(sent.textBody).toContain('[password reset link]');
      expect(sent.textBody).toContain('[verification link]');
      expect(sent.textBody).toContain('[e-mail change link]');
      expect(sent.textBody).toContain('[order claim link]');
      expect(sent.textBody).toContain('[team invitation link]');
      expect(sent.textBody).toContain('/order-status/keepme');
      expect(sent.htmlBody).toContain('href="[password reset link]"');
      expect(waiting.textBody).toBe(text);
      const keys = await mdb.select({ k: orders.idempotencyKey, s: orders.idempotencyScope }).from(orders).where(like(orders.idempotencyKey, 'old-%'));
      expect(keys.sort((a, b) => a.k!.localeCompare(b.k!))).toEqual([
        { k: 'old-team-key', s: `team:${tm.teamId}` },
        { k: 'old-user-key', s: `user:${owner.user.id}` },
        { k: 'old-visitor-key', s: 'legacy' },
      ]);
    } finally {
      await m.close();
    }
  });
});

describe("the designer's link fields are normalised like profile links", () => {
  const parse = (website: unknown) => DesignProfile.safeParse({ fullName: 'A', email: 'a@example.com', phoneNumber: '1', website, linkedinUrl: website });

  it('refuses http:evil.com, backslash and scheme tricks, javascript: and data:; a bare domain gets https://', async () => {
    for (const bad of ['http:evil.com', 'https:evil.com', 'http:/evil.com', 'https:\\\\evil.com', 'javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<b>x</b>', 'http://user:pw@evil.com', 'ftp://evil.com', '//evil.com', 'http://evil']) {
      expect(parse(bad).success, bad).toBe(false);
    }
    expect(parse('example.com/about').data).toMatchObject({ website: 'https://example.com/about' });
    expect(parse('https://Example.COM').data).toMatchObject({ website: 'https://example.com' });
    expect(parse('').data?.website).toBeUndefined();
    const card = await signedInAgent(t.app);
    const submit = await card.agent.post('/api/cards/submit-for-review', {
      templateId: 1,
      customerProfile: { fullName: 'A', email: 'a@example.com', phoneNumber: '1', website: 'http:evil.com', linkedinUrl: 'javascript:alert(1)' },
    });
    expect(submit.statusCode).toBe(400);
    expect(submit.json().errors).toMatchObject({ 'customerProfile.website': expect.any(String), 'customerProfile.linkedinUrl': expect.any(String) });
  });

  it('any spelling that is accepted is stored as an http(s) URL with a real host (generated spellings)', () => {
    const scheme = fc.constantFrom('http:', 'https:', 'HTTP:', 'javascript:', 'data:', 'vbscript:', 'file:', '', 'https:/', 'http:\\\\', ' https://');
    const slashes = fc.constantFrom('', '/', '//', '///', '\\\\', '/\\', '\t//');
    const host = fc.constantFrom('evil.com', 'example.org', 'a', 'xn--bcher-kva.example', '127.0.0.1', '[::1]', 'user@evil.com', 'evil.com:443', '%65vil.com');
    const rest = fc.constantFrom('', '/', '/path?q=1', '#frag', '/a b', '/\u0000');
    fc.assert(
      fc.property(scheme, slashes, host, rest, (s, sl, h, r) => {
        const raw = `${s}${sl}${h}${r}`;
        for (const schema of [DesignProfile, TemplateCustomizeBody]) {
          const out = schema.safeParse({ fullName: 'A', email: 'a@example.com', phoneNumber: '1', website: raw });
          if (!out.success || !out.data.website) continue;
          const stored = out.data.website;
          expect(stored, raw).toMatch(/^https?:\/\/[^/\\\s]/);
          const u = new URL(stored);
          expect(['http:', 'https:']).toContain(u.protocol);
          expect(u.username + u.password).toBe('');
          expect(u.href.replace(/\/$/, '')).toBe(stored.replace(/\/$/, ''));
        }
      }),
      { numRuns: 400 },
    );
  });
});
