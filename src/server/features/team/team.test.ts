import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { multipartBody } from '#tests/helpers/multipart';
import { cardCodes, cards, leads, orders, outbox, profiles, teamInvites, users } from '#server/db/schema/index';
import { LOCKED_FIELD_MESSAGE } from '#shared/team/brand';
import { visitFlusher } from '#server/features/engagement/visit-flusher';
import { processPool } from '#server/infra/process-pool';
import { TEAM_LEADS_CSV_HEADERS, TEAM_MESSAGES } from '#shared/schemas/team';

const ORIGIN = 'https://cards.example.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off' } });
  // the CSV import is parsed in the sandbox (issue 32): its first child is loaded before the tests time it
  await (processPool() as { whenReady?: () => Promise<void> }).whenReady?.();
});
afterAll(async () => {
  await t?.close();
});

const brand = { primaryColor: '#123456', accentColor: '#7a1f1f', profileLayout: 'corporate', lockedFields: ['companyName', 'website'] };

async function ownerWithTeam() {
  const owner = await signedInAgent(t.app, { firstName: 'Olivia', lastName: 'Owner' });
  const res = await owner.agent.post('/api/team', { name: 'Northwind', companyName: 'Northwind Trading', companyPhone: '+1 212 555 0100', companyEmail: 'hello@northwind.test', address: '1 Main St, New York', website: 'https://northwind.test' });
  expect(res.statusCode, res.body).toBe(201);
  return owner;
}

/** The invitation link's token from the e-mail sent to `email`. */
async function inviteToken(email: string): Promise<string> {
  const rows = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, email), like(outbox.dedupeKey, 'team-invite:%')));
  const last = rows.sort((a, b) => b.id - a.id)[0];
  const m = /\/team\/join\/([A-Za-z0-9_-]+)/.exec(last?.textBody ?? '');
  expect(m, `an invitation e-mail to ${email}`).not.toBeNull();
  return m![1];
}

/** A person invited to the owner's team, who signs up with the invited address and accepts. */
async function joinedMember(owner: Agent, fullName = 'Mia Member', role: 'member' | 'admin' = 'member') {
  const email = `m_${Math.random().toString(36).slice(2)}@example.com`;
  const inv = await owner.post('/api/team/invites', { invites: [{ email, fullName, jobTitle: 'Sales', role }] });
  expect(inv.statusCode, inv.body).toBe(201);
  const token = await inviteToken(email);
  const person = await signedInAgent(t.app, { email, firstName: fullName.split(' ')[0], lastName: fullName.split(' ')[1] ?? 'X' });
  const accepted = await person.agent.post(`/api/team/invites/${token}/accept`);
  expect(accepted.statusCode, accepted.body).toBe(200);
  expect(accepted.json().role).toBe(role);
  const [profile] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, person.user.id));
  return { ...person, profileId: profile.id, email };
}

describe('a team: create, brand, invite, accept', () => {
  it('the creator owns it; nobody is in two teams; bad input is a 400 with the field', async () => {
    const owner = await ownerWithTeam();
    const me = await owner.agent.get('/api/team');
    expect(me.json()).toMatchObject({ role: 'owner', memberCount: 1, team: { name: 'Northwind', companyName: 'Northwind Trading' } });
    const again = await owner.agent.post('/api/team', { name: 'Second' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(TEAM_MESSAGES.alreadyInTeam);
    const outsider = await signedInAgent(t.app);
    expect((await outsider.agent.get('/api/team')).json()).toEqual({ team: null, role: null, memberCount: 0 });
    const bad = await outsider.agent.post('/api/team', { name: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.name).toBe(TEAM_MESSAGES.name);
    const pale = await owner.agent.put('/api/team/brand', { ...brand, primaryColor: '#ffff00' });
    expect(pale.statusCode).toBe(400);
    expect(pale.json().errors.primaryColor).toBe(TEAM_MESSAGES.color);
  });

  it('a member accepts with the invited address; the brand reaches the public page; locked fields refuse changes', async () => {
    const owner = await ownerWithTeam();
    expect((await owner.agent.put('/api/team/brand', brand)).statusCode).toBe(200);
    const mia = await joinedMember(owner.agent);

    // a different account holding the link cannot use it
    const email = `z_${Date.now()}@example.com`;
    await owner.agent.post('/api/team/invites', { invites: [{ email }] });
    const token = await inviteToken(email);
    const stranger = await signedInAgent(t.app);
    const wrong = await stranger.agent.post(`/api/team/invites/${token}/accept`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(TEAM_MESSAGES.inviteOtherEmail);
    const info = await new Agent(t.app).get(`/api/team/join/${token}`);
    expect(info.json()).toMatchObject({ teamName: 'Northwind', email, invitedBy: 'Olivia Owner' });

    // accepting proved the mailbox
    const [u] = await t.app.ctx.db.select().from(users).where(eq(users.id, mia.user.id));
    expect(u.emailVerifiedAt).not.toBeNull();

    const page = await t.app.inject({ method: 'GET', url: `/p/${mia.profileId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Northwind Trading');
    expect(page.body).toContain('--pp-primary:#123456');
    expect(page.body).toContain('pp-corporate');
    expect(page.body).toContain(`/p/${mia.profileId}/go/0`);
    const hop = await t.app.inject({ method: 'GET', url: `/p/${mia.profileId}/go/0` });
    expect(hop.headers.location).toBe('https://northwind.test');

    const profile = (await mia.agent.get('/api/profile')).json();
    const body = { fullName: profile.fullName, jobTitle: 'Head of Sales', email: profile.email, phoneNumber: null, address: null, companyName: 'Mia Inc', profileTemplate: 'classic', customPhotoUrl: null, logoUrl: null, bannerLogoUrl: null, links: [], deleteLinks: [] };
    const locked = await mia.agent.put(`/api/profile/${mia.profileId}`, body);
    expect(locked.statusCode).toBe(400);
    expect(locked.json()).toMatchObject({ message: LOCKED_FIELD_MESSAGE, errors: { companyName: LOCKED_FIELD_MESSAGE } });
    const site = await mia.agent.put('/api/profile', { website: 'https://elsewhere.test' });
    expect(site.statusCode).toBe(400);
    expect(site.json().errors.website).toBe(LOCKED_FIELD_MESSAGE);
    // sending the team's value (what the form shows) is fine, and other fields save
    const ok = await mia.agent.put(`/api/profile/${mia.profileId}`, { ...body, companyName: 'Northwind Trading' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().jobTitle).toBe('Head of Sales');

    // a brand change shows at once, without editing the profile
    await owner.agent.put('/api/team/brand', { ...brand, primaryColor: '#0b3d2e' });
    const after = await t.app.inject({ method: 'GET', url: `/p/${mia.profileId}` });
    expect(after.body).toContain('--pp-primary:#0b3d2e');
  });

  it('the CSV import invites every good row in one go and reports each refused row with its reason', async () => {
    const owner = await ownerWithTeam();
    const existing = await joinedMember(owner.agent, 'Eve Existing');
    const lines = ['Name,Email,Job Title,Phone'];
    for (let i = 0; i < 20; i++) lines.push(`Person ${i},p${i}_${Date.now()}@example.com,Engineer,+1 212 555 01${String(i).padStart(2, '0')}`);
    lines.push('No Mail,not-an-address,Sales,');
    lines.push(`"Dup, Person",p0_${Date.now()}@example.com,Sales,`.replace(/p0_\d+/, lines[1].split(',')[1].split('@')[0]));
    lines.push(`Eve Existing,${existing.email},Sales,`);
    const { payload, headers } = multipartBody('file', Buffer.from(lines.join('\r\n')), { filename: 'people.csv', contentType: 'text/csv' });
    const res = await t.app.inject({ method: 'POST', url: '/api/team/invites/import', payload, headers: { ...headers, cookie: [...owner.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report.rows).toBe(23);
    expect(report.invited).toHaveLength(20);
    expect(report.refused.map((r: { row: number; reason: string }) => [r.row, r.reason.split(':')[0].split(' (')[0]])).toEqual([
      [21, 'E-mail'],
      [22, 'This address is listed twice'],
      [23, 'Already a member of the team'],
    ]);
    const list = (await owner.agent.get('/api/team/members')).json();
    expect(list.invites).toHaveLength(20);
    // the second import of the same people refuses them all: nothing twice
    const again = await t.app.inject({ method: 'POST', url: '/api/team/invites/import', payload, headers: { ...headers, cookie: [...owner.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(again.json().invited).toHaveLength(0);
    // resend makes a new link; revoke ends it
    const first = list.invites[0];
    const oldToken = await inviteToken(first.email);
    expect((await owner.agent.post(`/api/team/invites/${first.id}/resend`)).json().sends).toBe(2);
    expect((await new Agent(t.app).get(`/api/team/join/${oldToken}`)).statusCode).toBe(404);
    const newToken = await inviteToken(first.email);
    expect((await owner.agent.delete(`/api/team/invites/${first.id}`)).statusCode).toBe(200);
    expect((await new Agent(t.app).get(`/api/team/join/${newToken}`)).statusCode).toBe(404);
  });

  it('no header, or a binary file, is a 400 naming the file field', async () => {
    const owner = await ownerWithTeam();
    for (const bytes of [Buffer.from('a,b\n1,2'), Buffer.from([0, 1, 2, 3])]) {
      const { payload, headers } = multipartBody('file', bytes, { filename: 'x.csv' });
      const res = await t.app.inject({ method: 'POST', url: '/api/team/invites/import', payload, headers: { ...headers, cookie: [...owner.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.file).toBeTruthy();
    }
  });
});

describe('team cards, analytics, leads and offboarding', () => {
  it('a delivered team order needs its address (400 on the field, nothing written); a pickup needs none', async () => {
    const owner = await ownerWithTeam();
    const a = await joinedMember(owner.agent, 'Ada Address');
    const before = (await t.app.ctx.db.select({ id: orders.id }).from(orders)).length;
    const base = { members: [{ userId: a.user.id, quantity: 10 }], cardType: 'standard', cardStyle: 'Matte' };
    // a one-line address alone no longer places a delivered order
    const missing = await owner.agent.post('/api/team/orders', { ...base, deliveryOption: 'standard', address: '1 Main St, New York, NY' });
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json().errors).toMatchObject({ shippingAddress: 'Enter the delivery address' });
    const bad = await owner.agent.post('/api/team/orders', { ...base, deliveryOption: 'rush-24h', shippingAddress: { name: 'Front Desk', line1: '', city: 'New York', state: 'NY', postalCode: '10001' } });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(Object.keys(bad.json().errors)).toContain('shippingAddress.line1');
    expect((await t.app.ctx.db.select({ id: orders.id }).from(orders)).length).toBe(before);
    // a pickup: no address asked, none kept
    const pickup = await owner.agent.post('/api/team/orders', { ...base, deliveryOption: 'pickup-nyc', shippingAddress: { name: 'Front Desk', line1: '1 Main St', city: 'New York', state: 'NY', postalCode: '10001' } });
    expect(pickup.statusCode, pickup.body).toBe(201);
    const [row] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, pickup.json().orderId));
    expect(row.shippingAddress).toBeNull();
  });

  it('one order for chosen members, each card with its own code; stats and leads; removing a member turns their card to the company page', async () => {
    const owner = await ownerWithTeam();
    await owner.agent.put('/api/team/brand', brand);
    const a = await joinedMember(owner.agent, 'Ann Archer');
    const b = await joinedMember(owner.agent, 'Bob Baker');
    const res = await owner.agent.post('/api/team/orders', {
      members: [
        { userId: a.user.id, quantity: 100 },
        { userId: b.user.id, quantity: 50 },
      ],
      cardType: 'standard',
      cardStyle: 'Matte',
      deliveryOption: 'standard',
      address: '1 Main St, New York, NY',
      // the structured delivery address (issue 35) is stored as the order's shipping address
      shippingAddress: { name: 'Acme Front Desk', line1: '1 Main St', city: 'New York', state: 'NY', postalCode: '10001' },
      clientToken: `team-order-${Date.now()}`,
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json();
    expect(order.quantity).toBe(150);
    expect(order.cards).toHaveLength(2);
    const [row] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, order.orderId));
    expect(row.teamId).toBeTruthy();
    expect(row.shippingAddress).toEqual({ name: 'Acme Front Desk', line1: '1 Main St', city: 'New York', state: 'NY', postalCode: '10001', country: 'US' });
    expect(row.totalCents).toBe(row.unitPriceCents * 150 + row.deliveryFeeCents);
    const codes = await t.app.ctx.db.select().from(cardCodes).where(eq(cardCodes.orderId, order.orderId));
    expect(codes.map((c) => c.profileId).sort()).toEqual([a.profileId, b.profileId].sort());
    const annCard = order.cards.find((c: { userId: string }) => c.userId === a.user.id);
    expect(annCard.code).toBe(codes.find((c) => c.profileId === a.profileId)!.code);
    // the member sees their card in the dashboard
    const mine = (await a.agent.get('/api/cards')).json();
    expect(mine.some((c: { id: number; status: string }) => c.id === annCard.cardId && c.status === 'pending')).toBe(true);
    // a member cannot order for the team, nor see its stats
    expect((await a.agent.post('/api/team/orders', { members: [{ userId: a.user.id, quantity: 1 }], cardType: 'standard', cardStyle: 'Matte', deliveryOption: 'pickup-nyc' })).statusCode).toBe(403);
    expect((await a.agent.get('/api/team/stats')).statusCode).toBe(403);

    // staff review the order as one batch: reject Bob's with a reason (Bob is told), approve the rest at once
    const staff = await adminAgent(t.app);
    const queue = (await staff.agent.get('/api/admin/business-cards/pending')).json() as { id: number; batch: { orderId: number; teamName: string; size: number } | null }[];
    const batch = queue.filter((d) => d.batch?.orderId === order.orderId);
    expect(batch).toHaveLength(2);
    expect(batch[0].batch).toEqual({ orderId: order.orderId, teamName: 'Northwind', size: 2 });
    const bobCard = order.cards.find((c: { userId: string }) => c.userId === b.user.id);
    const rejected = await staff.agent.put(`/api/admin/business-cards/${bobCard.cardId}/review`, { status: 'rejected', reviewNotes: 'Your job title is missing' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const bobMail = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, b.email), like(outbox.dedupeKey, 'design-reviewed:%')));
    expect(bobMail).toHaveLength(1);
    expect(bobMail[0].textBody).toContain('Your job title is missing');
    const all = await staff.agent.post(`/api/admin/business-cards/batches/${order.orderId}/approve`);
    expect(all.json()).toEqual({ orderId: order.orderId, approved: 1 });
    expect((await staff.agent.post(`/api/admin/business-cards/batches/${order.orderId}/approve`)).statusCode).toBe(409);
    expect((await owner.agent.post(`/api/admin/business-cards/batches/${order.orderId}/approve`)).statusCode).toBe(403);
    const cardsTab = (await owner.agent.get('/api/team/orders')).json().orders[0];
    expect(cardsTab.cards.map((c: { fullName: string; status: string; reason: string | null }) => [c.fullName, c.status, c.reason]).sort()).toEqual([
      ['Ann Archer', 'approved', null],
      ['Bob Baker', 'rejected', 'Your job title is missing'],
    ]);

    // a scan of Ann's code opens Ann's page; a lead left there belongs to the team
    const scan = await t.app.inject({ method: 'GET', url: `/c/${annCard.code}` });
    expect(scan.statusCode).toBe(302);
    const lead = await new Agent(t.app).post(`/api/p/${a.profileId}/leads`, { name: 'Carla Client', email: 'carla@client.test', phone: '+1 646 555 0199', company: 'Client Co', note: '', consent: true });
    expect(lead.statusCode, lead.body).toBe(201);
    const teamLeads = (await owner.agent.get('/api/team/leads')).json();
    expect(teamLeads.leads[0]).toMatchObject({ name: 'Carla Client', memberName: 'Ann Archer' });
    const csv = await owner.agent.get('/api/team/leads.csv');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe(TEAM_LEADS_CSV_HEADERS.map((h) => `"${h}"`).join(','));
    expect(lines[1]).toBe('"Carla","Client","carla@client.test","+1 646 555 0199","Client Co","","Ann Archer"');

    await visitFlusher(t.app.ctx).flush();
    const stats = (await owner.agent.get('/api/team/stats?days=7')).json();
    expect(stats.totals.leads).toBe(1);
    expect(stats.members.find((m: { userId: string }) => m.userId === a.user.id).leads).toBe(1);
    expect(stats.byDay).toHaveLength(7);

    // offboarding Ann: her code shows the company, her page loses the brand, the lead stays with the team
    expect((await owner.agent.delete(`/api/team/members/${a.user.id}`)).statusCode).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: `/c/${annCard.code}` });
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('Northwind Trading');
    expect(gone.body).toContain('+1 212 555 0100');
    expect(gone.body).not.toContain('Ann Archer');
    const page = await t.app.inject({ method: 'GET', url: `/p/${a.profileId}` });
    expect(page.body).not.toContain('--pp-primary:#');
    expect((await owner.agent.get('/api/team/leads')).json().leads[0]).toMatchObject({ name: 'Carla Client', memberName: 'Ann Archer', memberUserId: null });
    expect((await a.agent.get('/api/leads')).json().total).toBe(0);
    expect((await a.agent.get('/api/team')).json().team).toBeNull();
    // Ann keeps her account and profile
    expect((await a.agent.get('/api/profile')).json().id).toBe(a.profileId);
    const [lrow] = await t.app.ctx.db.select().from(leads).where(eq(leads.profileId, a.profileId));
    expect(lrow.teamId).toBeTruthy();
    const [crow] = await t.app.ctx.db.select().from(cards).where(eq(cards.id, annCard.cardId));
    expect(crow.userId).toBe(a.user.id);
    expect(await t.app.ctx.db.select().from(teamInvites).where(eq(teamInvites.email, a.email))).toHaveLength(1);
  });
});
