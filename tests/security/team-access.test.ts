import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { outbox, teamMembers, teams } from '#server/db/schema/index';

/**
 * The access matrix of every team route (issue 21): owner, admin, member, a member of another team,
 * a signed-in outsider and a visitor. Roles are checked on the server whatever the client shows; a
 * caller from another team reaching this team's ids gets nothing and changes nothing.
 */
let t: TestApp;
type Who = 'owner' | 'admin' | 'member' | 'otherTeam' | 'outsider' | 'visitor';
const agents = {} as Record<Who, Agent>;
const ids = {} as Record<'owner' | 'admin' | 'member' | 'otherOwner', string>;
let teamId = '';
let inviteId = '';

async function inviteAndJoin(owner: Agent, role: 'admin' | 'member') {
  const email = `${role}_${Math.random().toString(36).slice(2)}@example.com`;
  await owner.post('/api/team/invites', { invites: [{ email, fullName: `The ${role}`, role }] });
  const [mail] = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, email), like(outbox.dedupeKey, 'team-invite:%')));
  const token = /\/team\/join\/([A-Za-z0-9_-]+)/.exec(mail.textBody)![1];
  const p = await signedInAgent(t.app, { email });
  expect((await p.agent.post(`/api/team/invites/${token}/accept`)).statusCode).toBe(200);
  return p;
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  const owner = await signedInAgent(t.app);
  await owner.agent.post('/api/team', { name: 'Team A', companyName: 'A Corp' });
  const admin = await inviteAndJoin(owner.agent, 'admin');
  const member = await inviteAndJoin(owner.agent, 'member');
  const other = await signedInAgent(t.app);
  await other.agent.post('/api/team', { name: 'Team B' });
  const outsider = await signedInAgent(t.app);
  Object.assign(agents, { owner: owner.agent, admin: admin.agent, member: member.agent, otherTeam: other.agent, outsider: outsider.agent, visitor: new Agent(t.app) });
  Object.assign(ids, { owner: owner.user.id, admin: admin.user.id, member: member.user.id, otherOwner: other.user.id });
  const [row] = await t.app.ctx.db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, owner.user.id));
  teamId = row.teamId;
  const inv = await owner.agent.post('/api/team/invites', { invites: [{ email: 'pending@example.com' }] });
  inviteId = inv.json().invited[0].id;
});
afterAll(async () => {
  await t?.close();
});

const brand = { primaryColor: '#123456', accentColor: '#7a1f1f', lockedFields: [] };
const order = () => ({ members: [{ userId: ids.member, quantity: 1 }], cardType: 'standard', cardStyle: 'Matte', deliveryOption: 'standard', shippingAddress: { name: 'Front Desk', line1: '1 Main St', city: 'New York', state: 'NY', postalCode: '10001' } });

/** Each route with what each caller must get: 'ok' is any 2xx; a number is that status. */
const MATRIX: { name: string; call: (a: Agent) => Promise<{ statusCode: number }>; expect: Record<Who, 'ok' | number> }[] = [
  { name: 'GET /api/team', call: (a) => a.get('/api/team'), expect: { owner: 'ok', admin: 'ok', member: 'ok', otherTeam: 'ok', outsider: 'ok', visitor: 401 } },
  { name: 'PATCH /api/team', call: (a) => a.patch('/api/team', { name: 'Renamed' }), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 'ok', outsider: 404, visitor: 401 } },
  { name: 'PUT /api/team/brand', call: (a) => a.put('/api/team/brand', brand), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 'ok', outsider: 404, visitor: 401 } },
  { name: 'GET /api/team/members', call: (a) => a.get('/api/team/members'), expect: { owner: 'ok', admin: 'ok', member: 'ok', otherTeam: 'ok', outsider: 404, visitor: 401 } },
  { name: 'POST /api/team/invites', call: (a) => a.post('/api/team/invites', { invites: [{ email: `x${Math.random()}@example.com` }] }), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 'ok', outsider: 404, visitor: 401 } },
  { name: 'POST /api/team/invites/{id}/resend', call: (a) => a.post(`/api/team/invites/${inviteId}/resend`), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 404, outsider: 404, visitor: 401 } },
  { name: 'PATCH /api/team/members/{member}', call: (a) => a.patch(`/api/team/members/${ids.member}`, { role: 'member' }), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 404, outsider: 404, visitor: 401 } },
  { name: 'POST /api/team/orders', call: (a) => a.post('/api/team/orders', order()), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 400, outsider: 404, visitor: 401 } },
  { name: 'GET /api/team/orders', call: (a) => a.get('/api/team/orders'), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 'ok', outsider: 404, visitor: 401 } },
  { name: 'GET /api/team/stats', call: (a) => a.get('/api/team/stats?days=7'), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 'ok', outsider: 404, visitor: 401 } },
  { name: 'GET /api/team/leads', call: (a) => a.get('/api/team/leads'), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 'ok', outsider: 404, visitor: 401 } },
  { name: 'GET /api/team/leads.csv', call: (a) => a.get('/api/team/leads.csv'), expect: { owner: 'ok', admin: 'ok', member: 403, otherTeam: 'ok', outsider: 404, visitor: 401 } },
  // the admin revokes first; for the owner it is gone by then
  { name: 'DELETE /api/team/invites/{id}', call: (a) => a.delete(`/api/team/invites/${inviteId}`), expect: { owner: 404, admin: 'ok', member: 403, otherTeam: 404, outsider: 404, visitor: 401 } },
];

describe('team routes: who may do what', () => {
  // rows run in order for every caller: the owner goes last (transfer and revoke change what follows)
  const order: Who[] = ['visitor', 'outsider', 'otherTeam', 'member', 'admin', 'owner'];
  for (const row of MATRIX) {
    it(row.name, async () => {
      for (const who of order) {
        const res = await row.call(agents[who]);
        const want = row.expect[who];
        const ok = want === 'ok' ? res.statusCode >= 200 && res.statusCode < 300 : res.statusCode === want;
        expect(ok, `${row.name} as ${who}: ${res.statusCode}, expected ${want}`).toBe(true);
      }
    });
  }

  it('another team and outsiders reach nothing of this team: its members, roles and brand are unchanged', async () => {
    const [team] = await t.app.ctx.db.select().from(teams).where(eq(teams.id, teamId));
    for (const who of ['otherTeam', 'outsider'] as const) {
      expect((await agents[who].delete(`/api/team/members/${ids.admin}`)).statusCode).toBe(404);
      expect((await agents[who].patch(`/api/team/members/${ids.admin}`, { role: 'member' })).statusCode).toBe(404);
    }
    const members = await t.app.ctx.db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId));
    expect(members.map((m) => m.userId).sort()).toEqual([ids.owner, ids.admin, ids.member].sort());
    const [after] = await t.app.ctx.db.select().from(teams).where(eq(teams.id, teamId));
    expect(after.brand).toEqual(team.brand);
  });

  it("a member sees the list without the others' e-mails; nobody sees sessions, passwords or personal orders", async () => {
    const asMember = (await agents.member.get('/api/team/members')).json();
    expect(asMember.invites).toEqual([]);
    for (const m of asMember.members) if (m.userId !== ids.member) expect(m.email).toBe('');
    const asAdmin = (await agents.admin.get('/api/team/members')).json();
    const text = JSON.stringify(asAdmin);
    for (const secret of ['password', 'passwordHash', 'session', 'statusToken', 'ip', 'userAgent']) expect(text).not.toContain(`"${secret}"`);
    // the admin cannot remove the owner, nor promote anyone to owner
    expect((await agents.admin.delete(`/api/team/members/${ids.owner}`)).statusCode).toBe(400);
    expect((await agents.admin.patch(`/api/team/members/${ids.member}`, { role: 'owner' })).statusCode).toBe(400);
  });

  it('only the owner transfers the team (and the old owner becomes an admin)', async () => {
    for (const who of ['visitor', 'outsider', 'otherTeam', 'member', 'admin'] as const) {
      const res = await agents[who].post('/api/team/transfer', { userId: ids.member });
      expect(res.statusCode, who).toBe({ visitor: 401, outsider: 404, otherTeam: 404, member: 403, admin: 403 }[who]);
    }
    expect((await agents.owner.post('/api/team/transfer', { userId: ids.member })).json().role).toBe('admin');
    expect((await agents.member.get('/api/team')).json().role).toBe('owner');
  });
});
