import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { parse as parseCsv } from 'csv-parse/sync';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent, verifiedAgent } from '#tests/helpers/factories';
import { cardCodes, identityEvents, leads, profiles, teamMembers, users } from '#server/db/schema/index';
import { SCIM_SCHEMAS } from '#shared/schemas/scim';

/**
 * SCIM 2.0 provisioning (issue 39 item 4, decision 39-02): Entra ID's and Okta's documented
 * provisioning sequences replayed request by request (bodies written from their documented
 * shapes), the team token rules, the field rules, offboarding and the audit log they leave.
 */
const ORIGIN = 'https://cards.example.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

const ENT = SCIM_SCHEMAS.enterprise;
const PATCH = SCIM_SCHEMAS.patch;

async function teamWithToken(name = 'Contoso', scopes: string[] = ['scim']) {
  const owner = await verifiedAgent(t.app, { firstName: 'Olga', lastName: 'Owner' });
  const team = await owner.agent.post('/api/team', { name, companyName: `${name} Ltd`, companyPhone: '+1 212 555 0100' });
  expect(team.statusCode, team.body).toBe(201);
  const tok = await owner.agent.post('/api/tokens', { name: 'Directory', scopes, expiresInDays: null, team: true, password: owner.input.password });
  expect(tok.statusCode, tok.body).toBe(201);
  const secret = tok.json().secret as string;
  const [m] = await t.app.ctx.db.select().from(teamMembers).where(eq(teamMembers.userId, owner.user.id));
  return { owner, secret, teamId: m!.teamId };
}

/** A SCIM client: JSON in `application/scim+json`, the team token as Bearer. */
function scimClient(secret: string) {
  const call = async (method: string, path: string, body?: unknown, contentType = 'application/scim+json') => {
    const res = await t.app.inject({
      method: method as 'GET',
      url: `/scim/v2${path}`,
      headers: { authorization: `Bearer ${secret}`, ...(body !== undefined ? { 'content-type': contentType } : {}) },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    if (res.statusCode !== 204) expect(String(res.headers['content-type']), `${method} ${path}`).toMatch(/^application\/scim\+json/);
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as any) : null, headers: res.headers };
  };
  return {
    get: (p: string) => call('GET', p),
    post: (p: string, b: unknown, ct?: string) => call('POST', p, b, ct),
    put: (p: string, b: unknown) => call('PUT', p, b),
    patch: (p: string, b: unknown) => call('PATCH', p, b),
    delete: (p: string) => call('DELETE', p),
  };
}

const q = (s: string) => encodeURIComponent(s);

async function profileOf(userId: string) {
  const [p] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, userId));
  return p;
}
async function roleOf(userId: string) {
  const [m] = await t.app.ctx.db.select().from(teamMembers).where(eq(teamMembers.userId, userId));
  return m?.role ?? null;
}
function expectScimError(res: { status: number; body: any }, status: number, scimType?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.schemas).toEqual([SCIM_SCHEMAS.error]);
  expect(res.body.status).toBe(String(status));
  expect(typeof res.body.detail).toBe('string');
  if (scimType) expect(res.body.scimType).toBe(scimType);
}

describe('discovery (RFC 7644 section 4)', () => {
  it('ServiceProviderConfig, ResourceTypes and Schemas describe what the service does', async () => {
    const spc = await t.app.inject({ method: 'GET', url: '/scim/v2/ServiceProviderConfig' });
    expect(spc.statusCode).toBe(200);
    expect(spc.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(spc.json()).toMatchObject({ schemas: [SCIM_SCHEMAS.spc], patch: { supported: true }, bulk: { supported: false }, filter: { supported: true }, authenticationSchemes: [{ type: 'oauthbearertoken' }] });
    const types = (await t.app.inject({ method: 'GET', url: '/scim/v2/ResourceTypes' })).json();
    expect(types.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group']);
    expect(types.Resources[0].schemaExtensions).toEqual([{ schema: ENT, required: false }]);
    const schemas = (await t.app.inject({ method: 'GET', url: '/scim/v2/Schemas' })).json();
    expect(schemas.Resources.map((r: { id: string }) => r.id)).toEqual([SCIM_SCHEMAS.user, ENT, SCIM_SCHEMAS.group]);
    expect((await t.app.inject({ method: 'GET', url: `/scim/v2/Schemas/${q(ENT)}` })).json().name).toBe('EnterpriseUser');
    const missing = await t.app.inject({ method: 'GET', url: '/scim/v2/ResourceTypes/Printer' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().schemas).toEqual([SCIM_SCHEMAS.error]);
  });
});

describe("Entra ID's provisioning sequence", () => {
  it('finds nobody, creates, reads, updates with filtered paths, groups to roles, disables (offboarding), deletes', async () => {
    const { owner, secret, teamId } = await teamWithToken('Contoso');
    const scim = scimClient(secret);
    const userName = 'alice.archer@contoso.test';

    // 1. "Get user by query": nobody yet
    const none = await scim.get(`/Users?filter=${q(`userName eq "${userName}"`)}`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ schemas: [SCIM_SCHEMAS.list], totalResults: 0, Resources: [] });

    // 2. "Create user" (Entra ID's body: core + enterprise schema, name, work e-mail, title, department, manager)
    const created = await scim.post('/Users', {
      schemas: [SCIM_SCHEMAS.user, ENT],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName,
      active: true,
      displayName: 'Alice Archer',
      title: 'Account Executive',
      emails: [{ primary: true, type: 'work', value: userName }],
      phoneNumbers: [{ type: 'work', value: '+1 212 555 0123' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'Alice Archer', familyName: 'Archer', givenName: 'Alice' },
      roles: [],
      [ENT]: { department: 'Sales', employeeNumber: 'E-1001', manager: { value: 'mgr-entra-1' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(created.headers.location).toBe(`${ORIGIN}/scim/v2/Users/${id}`);
    expect(created.body).toMatchObject({ userName, active: true, externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', meta: { resourceType: 'User', location: `${ORIGIN}/scim/v2/Users/${id}` } });
    expect(created.body.schemas).toEqual([SCIM_SCHEMAS.user, ENT]);
    expect(created.body[ENT]).toMatchObject({ department: 'Sales', manager: { value: 'mgr-entra-1' } });
    // the account, the membership and a profile filled by the default rules
    const [account] = await t.app.ctx.db.select().from(users).where(eq(users.email, userName));
    expect(account).toBeTruthy();
    expect(account!.role).toBe('user');
    expect(await roleOf(account!.id)).toBe('member');
    const profile = await profileOf(account!.id);
    expect(profile).toMatchObject({ fullName: 'Alice Archer', jobTitle: 'Account Executive', email: userName, phoneNumber: '+12125550123' }); // stored in E.164 (decision 37-09)

    // 3. "Get user" and 4. "Get user by query"
    const got = await scim.get(`/Users/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(id);
    const found = await scim.get(`/Users?filter=${q(`userName eq "${userName.toUpperCase()}"`)}`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    expect((await scim.get(`/Users?filter=${q('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`)).body.totalResults).toBe(1);

    // creating the same userName again: 409 uniqueness
    expectScimError(await scim.post('/Users', { schemas: [SCIM_SCHEMAS.user], userName, active: true }), 409, 'uniqueness');

    // 5. "Update user [multi-valued properties]" and single-valued ones, capitalised ops, enterprise paths
    const updated = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'alice.new@contoso.test' },
        { op: 'Replace', path: 'name.familyName', value: 'Archer-Smith' },
        { op: 'Replace', path: 'name.formatted', value: 'Alice Archer-Smith' },
        { op: 'Add', path: 'title', value: 'Head of Sales' },
        { op: 'Add', path: `${ENT}:department`, value: 'Enterprise Sales' },
        { op: 'Replace', path: `${ENT}:manager`, value: 'mgr-entra-2' },
        { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 646 555 0100' },
      ],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.emails).toEqual([{ primary: true, type: 'work', value: 'alice.new@contoso.test' }]);
    expect(updated.body.name).toMatchObject({ familyName: 'Archer-Smith', givenName: 'Alice' });
    expect(updated.body.phoneNumbers).toEqual([{ type: 'work', value: '+1 212 555 0123' }, { type: 'mobile', value: '+1 646 555 0100' }]);
    expect(updated.body[ENT]).toMatchObject({ department: 'Enterprise Sales', manager: { value: 'mgr-entra-2' }, employeeNumber: 'E-1001' });
    // always-synced fields follow (name, title); the contact e-mail is "filled when created" only
    expect(await profileOf(account!.id)).toMatchObject({ fullName: 'Alice Archer-Smith', jobTitle: 'Head of Sales', email: userName });

    // groups: Entra ID creates the group, then adds members with PATCH (path "members", value list)
    const group = await scim.post('/Groups', { schemas: [SCIM_SCHEMAS.group], externalId: 'grp-1', displayName: 'Card admins', meta: { resourceType: 'Group' } });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    expect(group.body.members).toEqual([]);
    const gid = group.body.id as string;
    expect((await scim.get(`/Groups?filter=${q('displayName eq "Card admins"')}&excludedAttributes=members`)).body.Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);
    const add = await scim.patch(`/Groups/${gid}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: id }] }] });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(await roleOf(account!.id)).toBe('admin');
    expect((await scim.get(`/Users/${id}`)).body.groups).toEqual([expect.objectContaining({ value: gid, display: 'Card admins' })]);
    const remove = await scim.patch(`/Groups/${gid}`, { schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: id }] }] });
    expect(remove.status).toBe(200);
    expect(await roleOf(account!.id)).toBe('member');
    // an unknown member is refused, nothing added
    expectScimError(await scim.patch(`/Groups/${gid}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ value: '00000000-0000-4000-8000-000000000000' }] }] }), 400, 'invalidValue');

    // the member's team card (a team order's code): it opens their page while they are in the team
    const code = `SC${Date.now().toString(36).toUpperCase()}`;
    await t.app.ctx.db.insert(cardCodes).values({ code, profileId: profile!.id, teamId, label: 'Alice card' });
    expect((await t.app.inject({ method: 'GET', url: `/c/${code}` })).statusCode).toBe(302);

    // 6. "Disable user": Entra ID sends the boolean as a string with a capitalised op
    const disabled = await scim.patch(`/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(disabled.body.active).toBe(false);
    expect(await roleOf(account!.id)).toBeNull();
    const [codeRow] = await t.app.ctx.db.select().from(cardCodes).where(eq(cardCodes.code, code));
    expect(codeRow!.active).toBe(false);
    const scan = await t.app.inject({ method: 'GET', url: `/c/${code}` });
    expect(scan.statusCode).toBe(410);
    expect(scan.body).toContain('Contoso Ltd');
    expect(scan.body).not.toContain('Alice Archer');

    // 7. "Delete user": 204, then 404 in the SCIM error schema; the account stays the person's
    expect((await scim.delete(`/Users/${id}`)).status).toBe(204);
    expectScimError(await scim.get(`/Users/${id}`), 404);
    expect((await t.app.ctx.db.select().from(users).where(eq(users.id, account!.id))).length).toBe(1);
    expect((await scim.delete(`/Groups/${gid}`)).status).toBe(204);

    // every operation is in the owner's audit log, with the CSV export readable by a CSV parser
    const log = await owner.agent.get('/api/team/audit');
    expect(log.statusCode, log.body).toBe(200);
    const kinds = (log.json().events as Array<{ kind: string }>).map((e) => e.kind);
    for (const k of ['scim-user-created', 'scim-user-updated', 'scim-user-deactivated', 'scim-user-deleted', 'scim-group-created', 'scim-group-updated', 'scim-group-deleted', 'scim-read']) expect(kinds).toContain(k);
    const csv = await owner.agent.get('/api/team/audit.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parseCsv(csv.body.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    expect(rows.some((r) => r.Kind === 'scim-user-deactivated' && r['E-mail'] === userName)).toBe(true);
  });
});

describe("Okta's provisioning sequence", () => {
  it('looks up, creates, replaces with PUT, pages, pushes groups, renames, deactivates and reactivates with path-less values', async () => {
    const { secret } = await teamWithToken('Initech');
    const scim = scimClient(secret);
    const bob = 'bob.baker@initech.test';

    // "Determine if the user already exists" (startIndex and count on the lookup)
    const look = await scim.get(`/Users?filter=${q(`userName eq "${bob}"`)}&startIndex=1&count=100`);
    expect(look.body).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

    // "Create the user" (Okta's body: core schema only, a password we never use, groups [])
    const created = await scim.post('/Users', {
      schemas: [SCIM_SCHEMAS.user],
      userName: bob,
      name: { givenName: 'Bob', familyName: 'Baker' },
      emails: [{ primary: true, value: bob, type: 'work' }],
      displayName: 'Bob Baker',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(created.body).not.toHaveProperty('password');
    const [account] = await t.app.ctx.db.select().from(users).where(eq(users.email, bob));
    expect(await profileOf(account!.id)).toMatchObject({ fullName: 'Bob Baker', email: bob });

    // "Retrieve the user" then "Update a specific user (PUT)"
    expect((await scim.get(`/Users/${id}`)).body.userName).toBe(bob);
    const put = await scim.put(`/Users/${id}`, {
      schemas: [SCIM_SCHEMAS.user],
      id,
      userName: bob,
      name: { givenName: 'Robert', familyName: 'Baker' },
      emails: [{ primary: true, value: bob, type: 'work' }],
      title: 'Engineer',
      active: true,
      meta: { resourceType: 'User' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await profileOf(account!.id)).toMatchObject({ fullName: 'Robert Baker', jobTitle: 'Engineer' });

    // paging: two users, one a page
    const carol = await scim.post('/Users', { schemas: [SCIM_SCHEMAS.user], userName: 'carol@initech.test', name: { givenName: 'Carol', familyName: 'Chen' }, emails: [{ primary: true, value: 'carol@initech.test', type: 'work' }], active: true });
    expect(carol.status).toBe(201);
    const p1 = await scim.get('/Users?startIndex=1&count=1');
    const p2 = await scim.get('/Users?startIndex=2&count=1');
    expect(p1.body).toMatchObject({ totalResults: 2, startIndex: 1, itemsPerPage: 1 });
    expect(p2.body).toMatchObject({ totalResults: 2, startIndex: 2, itemsPerPage: 1 });
    expect(new Set([p1.body.Resources[0].id, p2.body.Resources[0].id])).toEqual(new Set([id, carol.body.id]));
    expect((await scim.get('/Users?count=0')).body).toMatchObject({ totalResults: 2, Resources: [] });

    // "Push groups": create with members, rename with a path-less value, remove by a filtered path
    const group = await scim.post('/Groups', { schemas: [SCIM_SCHEMAS.group], displayName: 'Card admins', members: [{ value: id, display: bob }] });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    expect(group.body.members).toEqual([expect.objectContaining({ value: id, display: bob })]);
    expect(await roleOf(account!.id)).toBe('admin');
    const renamed = await scim.patch(`/Groups/${group.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { id: group.body.id, displayName: 'Initech Sales' } }] });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.displayName).toBe('Initech Sales');
    expect(await roleOf(account!.id)).toBe('member');
    const back = await scim.patch(`/Groups/${group.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Card admins' }] });
    expect(back.status).toBe(200);
    expect(await roleOf(account!.id)).toBe('admin');
    const removed = await scim.patch(`/Groups/${group.body.id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }] });
    expect(removed.status).toBe(200);
    expect(removed.body.members).toEqual([]);
    expect(await roleOf(account!.id)).toBe('member');
    expect((await scim.get('/Groups?startIndex=1&count=100')).body.totalResults).toBe(1);

    // "Deactivate the user" (path-less value object), then reactivate: the membership follows
    const off = await scim.patch(`/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    expect(await roleOf(account!.id)).toBeNull();
    const on = await scim.patch(`/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] });
    expect(on.status).toBe(200);
    expect(await roleOf(account!.id)).toBe('member');
    expect((await scim.delete(`/Groups/${group.body.id}`)).status).toBe(204);
  });
});

describe('offboarding by the directory keeps the leads with the team', () => {
  it("after a deactivation (active: false) and after a delete, the member's leads stay readable by the team owner", async () => {
    const { owner, secret, teamId } = await teamWithToken('Lambda');
    const scim = scimClient(secret);
    /** A member made by the directory, and a lead a visitor leaves on their page. */
    const provisioned = async (given: string, family: string, leadName: string) => {
      const userName = `${given.toLowerCase()}@lambda.test`;
      const created = await scim.post('/Users', { schemas: [SCIM_SCHEMAS.user], userName, name: { givenName: given, familyName: family }, displayName: `${given} ${family}`, emails: [{ primary: true, type: 'work', value: userName }], active: true });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const [account] = await t.app.ctx.db.select().from(users).where(eq(users.email, userName));
      const profile = await profileOf(account!.id);
      const lead = await new Agent(t.app).post(`/api/p/${profile!.id}/leads`, { name: leadName, email: `${leadName.split(' ')[0]!.toLowerCase()}@client.test`, company: 'Client Co', note: '', consent: true });
      expect(lead.statusCode, lead.body).toBe(201);
      return { scimId: created.body.id as string, userId: account!.id, profileId: profile!.id, memberName: `${given} ${family}`, leadName };
    };
    const una = await provisioned('Una', 'Ulm', 'Carla Client');
    const vic = await provisioned('Vic', 'Vale', 'Dan Dealer');
    type TeamLead = { name: string; memberName: string; memberUserId: string | null };
    const teamLeads = async () => {
      const res = await owner.agent.get('/api/team/leads');
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { total: number; leads: TeamLead[] };
    };
    const leadOf = (list: { leads: TeamLead[] }, name: string) => list.leads.find((l) => l.name === name);
    const before = await teamLeads();
    expect(before.total).toBe(2);
    expect(leadOf(before, una.leadName)).toMatchObject({ memberName: una.memberName, memberUserId: una.userId });
    expect(leadOf(before, vic.leadName)).toMatchObject({ memberName: vic.memberName, memberUserId: vic.userId });

    // Una is deactivated: out of the team, her lead stays with it (named by her page, no longer a member)
    const off = await scim.patch(`/Users/${una.scimId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(await roleOf(una.userId)).toBeNull();
    const afterDeactivate = await teamLeads();
    expect(afterDeactivate.total).toBe(2);
    expect(leadOf(afterDeactivate, una.leadName)).toMatchObject({ memberName: una.memberName, memberUserId: null });
    expect(leadOf(afterDeactivate, vic.leadName)).toMatchObject({ memberUserId: vic.userId });
    // and she no longer reads it herself
    const unaAgent = new Agent(t.app);
    await (await sessionHelper()).startSessionFor(unaAgent, una.userId);
    const hers = await unaAgent.get('/api/leads');
    expect(hers.statusCode, hers.body).toBe(200);
    expect(hers.json().total).toBe(0);

    // Vic is deleted: 204, out of the team, his lead stays with it too
    expect((await scim.delete(`/Users/${vic.scimId}`)).status).toBe(204);
    expect(await roleOf(vic.userId)).toBeNull();
    const afterDelete = await teamLeads();
    expect(afterDelete.total).toBe(2);
    expect(leadOf(afterDelete, una.leadName)).toMatchObject({ memberName: una.memberName, memberUserId: null });
    expect(leadOf(afterDelete, vic.leadName)).toMatchObject({ memberName: vic.memberName, memberUserId: null });
    const csv = await owner.agent.get('/api/team/leads.csv');
    expect(csv.statusCode).toBe(200);
    const rows = parseCsv(csv.body.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => Object.values(r).at(-1)).sort()).toEqual([una.memberName, vic.memberName]);
    // the rows keep the team
    const kept = await t.app.ctx.db.select({ teamId: leads.teamId }).from(leads).where(inArray(leads.profileId, [una.profileId, vic.profileId]));
    expect(kept).toEqual([{ teamId }, { teamId }]);
  });
});

describe('the team token, and bad requests in the SCIM error schema', () => {
  it('no token, a wrong scope, another team, a session cookie: refused and logged; nothing written', async () => {
    const a = await teamWithToken('Alpha');
    const b = await teamWithToken('Beta');
    const created = await scimClient(a.secret).post('/Users', { schemas: [SCIM_SCHEMAS.user], userName: 'dora@alpha.test', active: true });
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const anon = await t.app.inject({ method: 'GET', url: '/scim/v2/Users' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toMatchObject({ schemas: [SCIM_SCHEMAS.error], status: '401' });
    // a signed-in person's cookie is not a SCIM credential
    const cookie = await a.owner.agent.get('/scim/v2/Users');
    expect(cookie.statusCode).toBe(401);
    expectScimError(await scimClient('mc_' + 'x'.repeat(43)).get('/Users'), 401);
    // another team's token sees nothing of this team and changes nothing (IDOR)
    const other = scimClient(b.secret);
    expectScimError(await other.get(`/Users/${id}`), 404);
    expectScimError(await other.patch(`/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] }), 404);
    expectScimError(await other.delete(`/Users/${id}`), 404);
    expect((await other.get(`/Users?filter=${q('userName eq "dora@alpha.test"')}`)).body.totalResults).toBe(0);
    expect((await scimClient(a.secret).get(`/Users/${id}`)).body.active).toBe(true);
    // a team token without the scim scope
    const readOnly = await teamWithToken('Gamma', ['team:read']);
    expectScimError(await scimClient(readOnly.secret).get('/Users'), 403);
    // refusals are in the log (staff see all of them)
    const staff = await adminAgent(t.app);
    const log = (await staff.agent.get('/api/admin/audit?kind=scim-request-refused')).json();
    expect(log.total).toBeGreaterThanOrEqual(3);
  });

  it('malformed JSON, unknown filters and operations, wrong media types: 4xx SCIM errors, never a 500', async () => {
    const { secret } = await teamWithToken('Delta');
    const scim = scimClient(secret);
    expectScimError(await scim.post('/Users', '{"userName": '), 400, 'invalidSyntax');
    expectScimError(await scim.post('/Users', { schemas: [SCIM_SCHEMAS.user] }), 400, 'invalidValue');
    expectScimError(await scim.post('/Users', { schemas: [SCIM_SCHEMAS.user], userName: 'not-an-address', active: true }), 400, 'invalidValue');
    expectScimError(await scim.get(`/Users?filter=${q('userName co "a"')}`), 400, 'invalidFilter');
    expectScimError(await scim.get(`/Users?filter=${q('title eq "x"')}`), 400, 'invalidFilter');
    const ok = await scim.post('/Users', { schemas: [SCIM_SCHEMAS.user], userName: 'eve@delta.test', active: true }, 'application/json');
    expect(ok.status).toBe(201);
    expectScimError(await scim.patch(`/Users/${ok.body.id}`, { schemas: [PATCH], Operations: [{ op: 'Move', path: 'title', value: 'x' }] }), 400, 'invalidSyntax');
    expectScimError(await scim.patch(`/Users/${ok.body.id}`, { schemas: [PATCH], Operations: [] }), 400, 'invalidSyntax');
    expectScimError(await scim.patch(`/Users/${ok.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }] }), 400, 'invalidPath');
    expectScimError(await scim.patch(`/Users/${ok.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] }), 400, 'invalidValue');
    expectScimError(await scim.get('/Users/not-a-uuid'), 404);
    const text = await t.app.inject({ method: 'POST', url: '/scim/v2/Users', headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' }, payload: 'userName=x' });
    expect(text.statusCode).toBe(415);
    expect(text.json().schemas).toEqual([SCIM_SCHEMAS.error]);
    // the refused ones changed nothing: eve is the only user
    expect((await scim.get('/Users')).body.totalResults).toBe(1);
  });
});

describe('field rules and the settings page API', () => {
  it('the owner chooses never / create / always per field; synced fields are told to the member; bad input is a 400 with fields', async () => {
    const { owner, secret } = await teamWithToken('Epsilon');
    const settings = await owner.agent.get('/api/team/scim/settings');
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json()).toMatchObject({ baseUrl: `${ORIGIN}/scim/v2`, adminGroup: 'Card admins', fieldRules: { fullName: 'always', jobTitle: 'always', email: 'create' } });
    const bad = await owner.agent.put('/api/team/scim/settings', { fieldRules: { ...settings.json().fieldRules, jobTitle: 'sometimes' }, adminGroup: '' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['fieldRules.jobTitle', 'adminGroup']));
    const rules = { fullName: 'create', jobTitle: 'never', email: 'always', phoneNumber: 'never', address: 'never', companyName: 'always' };
    const saved = await owner.agent.put('/api/team/scim/settings', { fieldRules: rules, adminGroup: 'Epsilon Admins' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().fieldRules).toEqual(rules);

    const scim = scimClient(secret);
    const created = await scim.post('/Users', { schemas: [SCIM_SCHEMAS.user, ENT], userName: 'finn@epsilon.test', name: { formatted: 'Finn Foster' }, title: 'Designer', emails: [{ type: 'work', value: 'finn@epsilon.test' }], [ENT]: { organization: 'Epsilon Labs' }, active: true });
    expect(created.status).toBe(201);
    const [account] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'finn@epsilon.test'));
    expect(await profileOf(account!.id)).toMatchObject({ fullName: 'Finn Foster', jobTitle: null, email: 'finn@epsilon.test', companyName: 'Epsilon Labs' });
    await scim.patch(`/Users/${created.body.id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'replace', path: 'name.formatted', value: 'Finn F. Foster' },
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'finn.foster@epsilon.test' },
        { op: 'replace', path: `${ENT}:organization`, value: 'Epsilon Group' },
      ],
    });
    // create-only: the name stays; always: the e-mail and company follow
    expect(await profileOf(account!.id)).toMatchObject({ fullName: 'Finn Foster', email: 'finn.foster@epsilon.test', companyName: 'Epsilon Group' });

    // the member (signed in) is told which fields are locked by the directory
    await t.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, account!.id));
    const member = new Agent(t.app);
    const [row] = await t.app.ctx.db.select().from(users).where(and(eq(users.id, account!.id)));
    const { startSessionFor } = await sessionHelper();
    await startSessionFor(member, row!.id);
    const synced = await member.get('/api/team/scim/synced-fields');
    expect(synced.statusCode, synced.body).toBe(200);
    expect(synced.json().fields).toEqual(['email', 'companyName']);
    // a member may not read or change the settings; someone in no team gets 404
    expect((await member.get('/api/team/scim/settings')).statusCode).toBe(403);
    expect((await member.put('/api/team/scim/settings', { fieldRules: rules, adminGroup: 'x' })).statusCode).toBe(403);
    const loner = await signedInAgent(t.app);
    expect((await loner.agent.get('/api/team/scim/settings')).statusCode).toBe(404);
    expect((await loner.agent.get('/api/team/scim/synced-fields')).json().fields).toEqual([]);
    // the settings change is in the log
    const log = (await owner.agent.get('/api/team/audit?kind=scim-settings-changed')).json();
    expect(log.events[0].detail).toMatchObject({ adminGroup: 'Epsilon Admins' });
  });
});

/** Signs an agent in as a provisioned user (nobody knows their password): a session row and its cookie. */
async function sessionHelper() {
  const { hashSessionToken, SECURE_SESSION_COOKIE } = await import('#server/plugins/session');
  const { sessions } = await import('#server/db/schema/index');
  const crypto = await import('node:crypto');
  return {
    async startSessionFor(agent: Agent, userId: string) {
      const token = crypto.randomBytes(32).toString('base64url');
      await t.app.ctx.db.insert(sessions).values({ id: hashSessionToken(t.app.ctx.sessionSecret, token), userId, expiresAt: new Date(Date.now() + 86400_000) });
      // PUBLIC_URL is https in this file: the session cookie is the __Host- one
      agent.cookies.set(SECURE_SESSION_COOKIE, token);
    },
  };
}

describe('the audit log: who sees what, retention', () => {
  it("an owner sees their team's entries only; staff see everything; old entries are gone", async () => {
    const a = await teamWithToken('Zeta');
    const b = await teamWithToken('Eta');
    await scimClient(a.secret).post('/Users', { schemas: [SCIM_SCHEMAS.user], userName: 'gus@zeta.test', active: true });
    await scimClient(b.secret).post('/Users', { schemas: [SCIM_SCHEMAS.user], userName: 'hal@eta.test', active: true });
    const mine = (await a.owner.agent.get('/api/team/audit?kind=scim-user-created')).json();
    expect(mine.events.map((e: { email: string }) => e.email)).toEqual(['gus@zeta.test']);
    expect(mine.retentionDays).toBe(365);
    const staff = await adminAgent(t.app);
    const all = (await staff.agent.get('/api/admin/audit?kind=scim-user-created')).json();
    expect(all.events.map((e: { email: string }) => e.email)).toEqual(expect.arrayContaining(['gus@zeta.test', 'hal@eta.test']));
    const byTeam = (await staff.agent.get(`/api/admin/audit?teamId=${b.teamId}&kind=scim-user-created`)).json();
    expect(byTeam.events.map((e: { email: string }) => e.email)).toEqual(['hal@eta.test']);
    const csv = await staff.agent.get('/api/admin/audit.csv');
    expect(csv.statusCode).toBe(200);
    const rows = parseCsv(csv.body.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r['E-mail'])).toEqual(expect.arrayContaining(['gus@zeta.test', 'hal@eta.test']));
    // bad filters: 400 with the field
    const bad = await staff.agent.get('/api/admin/audit?teamId=nope&page=0');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['teamId', 'page']));
    // a user is not staff; a member is not the owner
    expect((await a.owner.agent.get('/api/admin/audit')).statusCode).toBe(403);

    // retention: an entry older than AUDIT_LOG_RETENTION_DAYS is deleted and never shown
    await t.app.ctx.db.insert(identityEvents).values({ kind: 'sign-in', teamId: a.teamId, email: 'ancient@zeta.test', at: new Date(Date.now() - 400 * 86400_000) });
    const { purgeExpiredIdentityEvents } = await import('#server/features/audit/audit.service');
    await purgeExpiredIdentityEvents(t.app.ctx, true);
    expect(await t.app.ctx.db.select().from(identityEvents).where(eq(identityEvents.email, 'ancient@zeta.test'))).toHaveLength(0);
  });

  it('password sign-ins and failures are recorded (auth calls recordIdentityEvent)', async () => {
    const person = await signedInAgent(t.app);
    const fresh = new Agent(t.app);
    expect((await fresh.post('/api/auth/login', { email: person.input.email, password: 'wrong-password-1' })).statusCode).toBe(401);
    expect((await fresh.post('/api/auth/login', { email: person.input.email, password: person.input.password })).statusCode).toBe(200);
    const rows = await t.app.ctx.db.select().from(identityEvents).where(eq(identityEvents.email, person.input.email));
    expect(rows.map((r) => [r.kind, r.outcome]).sort()).toEqual([
      ['sign-in', 'success'],
      ['sign-in-failed', 'failure'],
    ]);
  });
});
