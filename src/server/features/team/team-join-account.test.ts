import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { outbox, profiles, teamMembers, users } from '#server/db/schema/index';
import { TEAM_MESSAGES } from '#shared/schemas/team';

/**
 * Issue 37 item 6, decision 37-09: joining from an invitation asks only for a password (the name
 * when the invitation has none); the invited address is the account's and is verified at once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

async function invite(fullName: string | null) {
  const owner = await signedInAgent(t.app, { firstName: 'Olivia', lastName: 'Owner' });
  expect((await owner.agent.post('/api/team', { name: `Team ${Math.random().toString(36).slice(2, 7)}` })).statusCode).toBe(201);
  const email = `new.${Math.random().toString(36).slice(2)}@example.com`;
  expect((await owner.agent.post('/api/team/invites', { invites: [{ email, fullName, jobTitle: 'Sales', role: 'member' }] })).statusCode).toBe(201);
  const [mail] = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, email), like(outbox.dedupeKey, 'team-invite:%')));
  const token = /\/team\/join\/([A-Za-z0-9_-]+)/.exec(mail!.textBody)![1];
  return { email, token };
}

describe('joining from an invitation with a new account', () => {
  it('asks only a password: the account has the invited address (verified), the invited name, a username of its own, and is in the team', async () => {
    const { email, token } = await invite('Ann Archer');
    const visitor = new Agent(t.app);
    const info = await visitor.get(`/api/team/join/${token}`);
    expect(info.json()).toMatchObject({ email, fullName: 'Ann Archer' });

    const res = await visitor.post(`/api/team/join/${token}/account`, { password: 'a-good-long-password-7' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ role: 'member' });
    // signed in, verified: no "verify your e-mail" step and no confirmation e-mail
    const me = (await visitor.get('/api/auth/user')).json();
    expect(me).toMatchObject({ email, firstName: 'Ann', lastName: 'Archer', emailVerified: true });
    expect(me.username).toMatch(/^new\./);
    const [u] = await t.app.ctx.db.select().from(users).where(eq(users.email, email));
    expect(u!.emailVerifiedAt).not.toBeNull();
    expect(await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, email), like(outbox.kind, '%verif%')))).toHaveLength(0);
    expect(await t.app.ctx.db.select().from(teamMembers).where(eq(teamMembers.userId, u!.id))).toHaveLength(1);
    expect((await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, u!.id)))[0]).toMatchObject({ fullName: 'Ann Archer' });
    // the link is spent
    expect((await new Agent(t.app).post(`/api/team/join/${token}/account`, { password: 'another-password-8' })).statusCode).toBe(404);
  });

  it('asks the name only when the invitation has none; refuses weak passwords, an existing account and bad links, writing nothing', async () => {
    const { email, token } = await invite(null);
    const visitor = new Agent(t.app);
    const noName = await visitor.post(`/api/team/join/${token}/account`, { password: 'a-good-long-password-7' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().errors).toEqual({ fullName: TEAM_MESSAGES.nameNeeded });
    const short = await visitor.post(`/api/team/join/${token}/account`, { password: '123', fullName: 'Bo Baker' });
    expect(short.statusCode).toBe(400);
    expect(Object.keys(short.json().errors)).toEqual(['password']);
    expect(await t.app.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect((await visitor.post('/api/team/join/not-a-real-token-at-all-000/account', { password: 'a-good-long-password-7' })).statusCode).toBe(404);

    // someone who already has an account logs in to accept: no second account, no takeover
    await signedInAgent(t.app, { email });
    const exists = await visitor.post(`/api/team/join/${token}/account`, { password: 'a-good-long-password-7', fullName: 'Bo Baker' });
    expect(exists.statusCode).toBe(409);
    expect(exists.json().errors).toEqual({ email: TEAM_MESSAGES.accountExists });

    const ok = await (await invite(null)).token;
    const made = await new Agent(t.app).post(`/api/team/join/${ok}/account`, { password: 'a-good-long-password-7', fullName: 'Bo Baker' });
    expect(made.statusCode, made.body).toBe(201);
  });
});
