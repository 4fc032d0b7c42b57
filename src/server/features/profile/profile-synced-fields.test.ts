import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { verifiedAgent } from '#tests/helpers/factories';
import { profiles, sessions, teamMembers, users } from '#server/db/schema/index';
import { hashSessionToken, SESSION_COOKIE } from '#server/plugins/session';
import { SCIM_SCHEMAS, SYNCED_FIELD_MESSAGE } from '#shared/schemas/scim';

/**
 * Issue 39 item 4, decision 39-05: a field the company directory keeps in sync ("always") is locked
 * for the member on the server too. A change sent straight to the API (the profile form's PUT
 * /api/profile/{id} and the design flow's PUT /api/profile) answers 400 naming the field, and
 * nothing is written; the stored value sent again, and other fields, save as before.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

const ENT = SCIM_SCHEMAS.enterprise;

/** A team with a SCIM token, a member the directory created (Finn), and Finn signed in. */
async function provisionedMember(rules?: Record<string, string>) {
  const owner = await verifiedAgent(t.app, { firstName: 'Olga', lastName: 'Owner' });
  expect((await owner.agent.post('/api/team', { name: 'Synced Co', companyName: 'Synced Co Ltd', companyPhone: '+1 212 555 0100' })).statusCode).toBe(201);
  if (rules) expect((await owner.agent.put('/api/team/scim/settings', { fieldRules: rules, adminGroup: 'Card admins' })).statusCode).toBe(200);
  const tok = await owner.agent.post('/api/tokens', { name: 'Directory', scopes: ['scim'], expiresInDays: null, team: true, password: owner.input.password });
  expect(tok.statusCode, tok.body).toBe(201);
  const email = `finn.${crypto.randomBytes(4).toString('hex')}@synced.test`;
  const created = await t.app.inject({
    method: 'POST',
    url: '/scim/v2/Users',
    headers: { authorization: `Bearer ${tok.json().secret}`, 'content-type': 'application/scim+json' },
    payload: JSON.stringify({ schemas: [SCIM_SCHEMAS.user, ENT], userName: email, name: { formatted: 'Finn Foster' }, title: 'Designer', emails: [{ type: 'work', value: email }], [ENT]: { organization: 'Synced Labs' }, active: true }),
  });
  expect(created.statusCode, created.body).toBe(201);
  const [account] = await t.app.ctx.db.select().from(users).where(eq(users.email, email));
  await t.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, account!.id));
  const member = new Agent(t.app);
  const token = crypto.randomBytes(32).toString('base64url');
  await t.app.ctx.db.insert(sessions).values({ id: hashSessionToken(t.app.ctx.sessionSecret, token), userId: account!.id, expiresAt: new Date(Date.now() + 86400_000) });
  member.cookies.set(SESSION_COOKIE, token);
  const profile = (await member.get('/api/profile')).json();
  expect(profile).toMatchObject({ fullName: 'Finn Foster' });
  return { member, userId: account!.id, profile };
}

const stored = async (userId: string) => (await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, userId)))[0]!;

/** The profile form's whole body, from the profile as the API answers it. */
function formBody(p: any, changes: Record<string, unknown> = {}) {
  return {
    fullName: p.fullName,
    jobTitle: p.jobTitle,
    email: p.email,
    phoneNumber: p.phoneNumber,
    address: p.address,
    companyName: p.companyName,
    profileTemplate: p.profileTemplate,
    customPhotoUrl: p.customPhotoUrl,
    logoUrl: p.logoUrl,
    bannerLogoUrl: p.bannerLogoUrl,
    links: [],
    deleteLinks: [],
    ...changes,
  };
}

describe('fields kept in sync by the directory are refused when sent straight to the API', () => {
  it('the profile form: changing the synced name or title is a 400 naming the field; nothing is written', async () => {
    const { member, userId, profile } = await provisionedMember();
    const before = await stored(userId);

    const res = await member.put(`/api/profile/${profile.id}`, formBody(profile, { fullName: 'Someone Else', address: '1 New Street' }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual({ fullName: SYNCED_FIELD_MESSAGE });
    expect(res.json().message).toContain('Full name');
    const both = await member.put(`/api/profile/${profile.id}`, formBody(profile, { fullName: 'Someone Else', jobTitle: 'CEO' }));
    expect(both.statusCode).toBe(400);
    expect(both.json().errors).toEqual({ fullName: SYNCED_FIELD_MESSAGE, jobTitle: SYNCED_FIELD_MESSAGE });
    // nothing written: not the synced field, not the free one sent with it
    const after = await stored(userId);
    expect(after).toMatchObject({ fullName: before.fullName, jobTitle: before.jobTitle, address: before.address, updatedAt: before.updatedAt });

    // the stored values sent again (the editor sends the whole form) and a free field: saved
    const ok = await member.put(`/api/profile/${profile.id}`, formBody(profile, { address: '1 New Street' }));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ fullName: 'Finn Foster', jobTitle: 'Designer', address: '1 New Street' });
    // a change of case or spaces only is not written either
    const cased = await member.put(`/api/profile/${profile.id}`, formBody(profile, { fullName: 'FINN FOSTER ' }));
    expect(cased.statusCode, cased.body).toBe(200);
    expect((await stored(userId)).fullName).toBe('Finn Foster');
  });

  it('the design flow (PUT /api/profile) refuses the same fields; fields the directory does not sync stay free', async () => {
    const { member, userId } = await provisionedMember();
    const res = await member.put('/api/profile', { jobTitle: 'Chief Everything' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual({ jobTitle: SYNCED_FIELD_MESSAGE });
    expect((await stored(userId)).jobTitle).toBe('Designer');
    // e-mail is "filled when created" by default: the member may change it
    const ok = await member.put('/api/profile', { email: 'finn.personal@synced.test', fullName: 'Finn Foster' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await stored(userId)).email).toBe('finn.personal@synced.test');
  });

  it("the owner's rules decide: with the name only filled when created, the member may change it; a member whose SCIM link ended is free", async () => {
    const rules = { fullName: 'create', jobTitle: 'never', email: 'create', phoneNumber: 'never', address: 'never', companyName: 'always' };
    const { member, userId, profile } = await provisionedMember(rules);
    expect((await member.put(`/api/profile/${profile.id}`, formBody(profile, { fullName: 'Finn F. Foster' }))).statusCode).toBe(200);
    const company = await member.put('/api/profile', { companyName: 'My Own Shop' });
    expect(company.statusCode).toBe(400);
    expect(company.json().errors).toEqual({ companyName: SYNCED_FIELD_MESSAGE });
    // out of the team (offboarded): nothing is synced any more
    await t.app.ctx.db.delete(teamMembers).where(eq(teamMembers.userId, userId));
    expect((await member.put('/api/profile', { companyName: 'My Own Shop' })).statusCode).toBe(200);
  });
});
