import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { parse as parseCsv } from 'csv-parse/sync';
import vCard from 'vcf';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { startSmtpServer, waitFor, type TestSmtpServer } from '#tests/helpers/smtp-server';
import { leads, outbox } from '#server/db/schema/index';
import { LEAD_MESSAGES } from '#shared/schemas/engagement';

let t: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://cards.example.test' } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let ipSeq = 1;
/** every test gets its own client address, so the 5-per-minute limit is only met where tested */
const freshIp = () => `10.1.${Math.floor(ipSeq / 250)}.${ipSeq++ % 250}`;

const countLeads = async () => Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from leads`)) as any).rows[0].n);

async function ownerWithProfile(over: Record<string, unknown> = {}) {
  const s = await signedInAgent(t.app);
  const res = await s.agent.post('/api/profile', { fullName: 'Grace Hopper', jobTitle: 'Engineer', email: 'grace@example.com', ...over });
  expect(res.statusCode).toBe(201);
  return { ...s, profile: res.json() as { id: string; fullName: string } };
}

const lead = (over: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0018',
  company: 'Analytical Engines Ltd',
  note: 'Met you at the conference.\nLet us talk about cards.',
  consent: true,
  ...over,
});

function postJson(profileId: string, body: unknown, ip = freshIp(), headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/p/${profileId}/leads`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** What a browser sends for the page's plain HTML form (JavaScript off). */
function postForm(profileId: string, fields: Record<string, string>, ip = freshIp(), accept = 'text/html,application/xhtml+xml,*/*;q=0.8') {
  const boundary = `----mc${crypto.randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/p/${profileId}/leads`,
    remoteAddress: ip,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, accept, origin: 'https://cards.example.test' },
    payload,
  });
}

describe('contact exchange: a visitor leaves their details', () => {
  it('stores the lead and e-mails the owner through the outbox', async () => {
    const { agent, user, profile } = await ownerWithProfile();
    const res = await postJson(profile.id, lead());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: LEAD_MESSAGES.sent });

    const list = await agent.get('/api/leads');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, formEnabled: true });
    expect(list.json().leads[0]).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 7946 0018',
      company: 'Analytical Engines Ltd',
      note: 'Met you at the conference.\nLet us talk about cards.',
      consent: true,
    });

    // the owner's account address, not the public profile e-mail
    const [mail] = await t.app.ctx.db.select().from(outbox).where(eq(outbox.dedupeKey, `lead-received:${list.json().leads[0].id}`));
    expect(mail).toMatchObject({ kind: 'lead-received', toAddress: user.email, subject: 'New contact: Ada Lovelace' });
    expect(mail.textBody).toContain('ada@example.com');
    expect(mail.textBody).toContain('https://cards.example.test/dashboard?tab=leads');
    // (the owner's sign-up also mailed a verification link: look for the lead's own e-mail)
    const sent = await waitFor(() => smtp.messages.find((m) => m.to.includes(user.email) && m.subject !== 'Verify your Metal Cards NYC email address'), 'the lead e-mail at the SMTP server');
    expect(sent.subject).toBe('New contact: Ada Lovelace');
  });

  it('escapes the visitor text in the HTML e-mail', async () => {
    const { profile } = await ownerWithProfile();
    expect((await postJson(profile.id, lead({ name: '<b>Eve</b> & co', note: '<script>x()</script>' }))).statusCode).toBe(201);
    const [row] = await t.app.ctx.db.select().from(leads).where(eq(leads.profileId, profile.id));
    const [mail] = await t.app.ctx.db.select().from(outbox).where(eq(outbox.dedupeKey, `lead-received:${row.id}`));
    expect(mail.htmlBody).not.toContain('<script>x()');
    expect(mail.htmlBody).toContain('&lt;b&gt;Eve&lt;/b&gt; &amp; co');
  });

  it('needs consent, a name and an e-mail or phone; refuses bad fields and writes nothing', async () => {
    const { profile } = await ownerWithProfile();
    const before = await countLeads();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [lead({ consent: false }), 'consent', LEAD_MESSAGES.consent],
      [lead({ consent: undefined }), 'consent', LEAD_MESSAGES.consent],
      [lead({ consent: 'yes' }), 'consent', LEAD_MESSAGES.consent],
      [lead({ name: ' ' }), 'name', LEAD_MESSAGES.name],
      [lead({ name: undefined }), 'name', LEAD_MESSAGES.name],
      [lead({ name: 'Ada\r\nBcc: x@example.com' }), 'name', 'Name must be a single line of text'],
      [lead({ email: 'not-an-email' }), 'email', LEAD_MESSAGES.email],
      [lead({ email: '', phone: '' }), 'email', LEAD_MESSAGES.contact],
      [lead({ email: null, phone: null }), 'email', LEAD_MESSAGES.contact],
      [lead({ phone: 'call me' }), 'phone', 'Please enter a valid phone number'],
      [lead({ company: 'x'.repeat(101) }), 'company', 'Company must be at most 100 characters'],
      [lead({ note: 'x'.repeat(1001) }), 'note', 'Note must be at most 1000 characters'],
      [lead({ extra: 1 }), 'extra', 'Unknown field: extra'],
    ];
    for (const [body, field, message] of cases) {
      const res = await postJson(profile.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[field], field).toBe(message);
    }
    expect((await postJson(profile.id, '{"name":')).statusCode).toBe(400);
    expect((await postJson(profile.id, [])).statusCode).toBe(400);
    expect(await countLeads()).toBe(before);
  });

  it('accepts an e-mail only or a phone only', async () => {
    const { agent, profile } = await ownerWithProfile();
    expect((await postJson(profile.id, lead({ phone: undefined, company: undefined, note: undefined }))).statusCode).toBe(201);
    expect((await postJson(profile.id, lead({ email: '', name: 'Bob Phone' }))).statusCode).toBe(201);
    const list = (await agent.get('/api/leads')).json();
    expect(list.leads.map((l: any) => [l.name, l.email, l.phone])).toEqual([
      ['Bob Phone', null, '+44 20 7946 0018'],
      ['Ada Lovelace', 'ada@example.com', null],
    ]);
  });

  it('answers 404 for an unknown profile and a malformed id', async () => {
    expect((await postJson('nosuchprofile1', lead())).statusCode).toBe(404);
    expect((await postJson('BAD!', lead())).statusCode).toBe(400);
  });

  it('drops a filled honeypot silently (same answer, nothing stored, no e-mail)', async () => {
    const { agent, profile } = await ownerWithProfile();
    const mailsBefore = Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from outbox`)) as any).rows[0].n);
    const res = await postJson(profile.id, lead({ website: 'http://spam.example' }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: LEAD_MESSAGES.sent });
    expect((await agent.get('/api/leads')).json().total).toBe(0);
    expect(Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from outbox`)) as any).rows[0].n)).toBe(mailsBefore);
  });

  it('allows 5 per minute from one address, then 429 with Retry-After', async () => {
    const { profile } = await ownerWithProfile();
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await postJson(profile.id, lead({ name: `Visitor ${i}` }), ip)).statusCode).toBe(201);
    const sixth = await postJson(profile.id, lead(), ip);
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(sixth.json().message).toBe(LEAD_MESSAGES.rateLimited);
    // another address is not affected
    expect((await postJson(profile.id, lead())).statusCode).toBe(201);
  });

  it('refuses a cross-site post and a text/plain body', async () => {
    const { profile } = await ownerWithProfile();
    const before = await countLeads();
    expect((await postJson(profile.id, lead(), freshIp(), { origin: 'https://evil.example' })).statusCode).toBe(403);
    const plain = await t.app.inject({
      method: 'POST',
      url: `/api/p/${profile.id}/leads`,
      remoteAddress: freshIp(),
      headers: { 'content-type': 'text/plain' },
      payload: 'name=Ada&consent=on',
    });
    expect(plain.statusCode).toBe(415);
    expect(await countLeads()).toBe(before);
  });

  it('is refused (403) when the owner turns the form off, and accepted again when turned on', async () => {
    const { agent, profile } = await ownerWithProfile();
    expect((await agent.get('/api/profile/lead-form')).json()).toEqual({ enabled: true });
    const off = await agent.put('/api/profile/lead-form', { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false });
    expect((await agent.get('/api/profile/lead-form')).json()).toEqual({ enabled: false });
    expect((await agent.get('/api/leads')).json().formEnabled).toBe(false);
    const refused = await postJson(profile.id, lead());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(LEAD_MESSAGES.disabled);
    expect((await agent.put('/api/profile/lead-form', { enabled: true })).statusCode).toBe(200);
    expect((await postJson(profile.id, lead())).statusCode).toBe(201);
  });

  it('validates the lead-form setting', async () => {
    const { agent } = await ownerWithProfile();
    for (const body of [{}, { enabled: 'no' }, { enabled: 1 }, { enabled: true, more: 1 }]) {
      const res = await agent.put('/api/profile/lead-form', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await agent.get('/api/profile/lead-form')).json()).toEqual({ enabled: true });
    // no profile yet: 404
    const { agent: fresh } = await signedInAgent(t.app);
    expect((await fresh.put('/api/profile/lead-form', { enabled: false })).statusCode).toBe(404);
    expect((await fresh.get('/api/profile/lead-form')).statusCode).toBe(404);
  });
});

describe('contact exchange without JavaScript (plain HTML form, multipart)', () => {
  it('sends the details and redirects to a thank-you page', async () => {
    const { agent, profile } = await ownerWithProfile();
    const res = await postForm(profile.id, { name: 'Form Visitor', email: 'form@example.com', phone: '', company: '', note: 'Hello', consent: 'on', website: '' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/p/${profile.id}/thanks`);
    const thanks = await t.app.inject({ method: 'GET', url: String(res.headers.location) });
    expect(thanks.statusCode).toBe(200);
    expect(thanks.headers['content-type']).toContain('text/html');
    expect(thanks.body).toContain('Your details were sent to Grace Hopper.');
    expect(thanks.body).not.toContain('<script');
    const list = (await agent.get('/api/leads')).json();
    expect(list.leads[0]).toMatchObject({ name: 'Form Visitor', email: 'form@example.com', phone: null, company: null, note: 'Hello', consent: true });
  });

  it('shows the form again with the messages and the typed values when something is wrong', async () => {
    const { agent, profile } = await ownerWithProfile();
    const res = await postForm(profile.id, { name: 'Typo Visitor', email: 'typo@', phone: '', note: '<i>hi</i>' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain(LEAD_MESSAGES.email);
    expect(res.body).toContain(LEAD_MESSAGES.consent);
    expect(res.body).toContain('value="Typo Visitor"');
    expect(res.body).toContain('&lt;i&gt;hi&lt;/i&gt;');
    expect(res.body).not.toContain('<i>hi</i>');
    expect((await agent.get('/api/leads')).json().total).toBe(0);
  });

  it('explains a turned-off form and the rate limit in HTML', async () => {
    const { agent, profile } = await ownerWithProfile();
    await agent.put('/api/profile/lead-form', { enabled: false });
    const off = await postForm(profile.id, { name: 'Late Visitor', email: 'late@example.com', consent: 'on' });
    expect(off.statusCode).toBe(403);
    expect(off.body).toContain(LEAD_MESSAGES.disabled);
    await agent.put('/api/profile/lead-form', { enabled: true });
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await postForm(profile.id, { name: `V ${i}`, email: 'v@example.com', consent: 'on' }, ip)).statusCode).toBe(303);
    const limited = await postForm(profile.id, { name: 'V 6', email: 'v@example.com', consent: 'on' }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain('Please wait a minute');
  });

  it('answers JSON to a multipart post from a script (no text/html in Accept)', async () => {
    const { profile } = await ownerWithProfile();
    const res = await postForm(profile.id, { name: 'Script Visitor', email: 's@example.com', consent: 'on' }, freshIp(), '*/*');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: LEAD_MESSAGES.sent });
  });

  it('thank-you page of an unknown profile is a 404 page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/p/nosuchprofile1/thanks' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Profile Not Found');
  });
});

describe("the owner's leads", () => {
  it('are for signed-in owners only', async () => {
    const a = new Agent(t.app);
    for (const url of ['/api/leads', '/api/leads.csv', '/api/leads.vcf', '/api/profile/lead-form']) expect((await a.get(url)).statusCode, url).toBe(401);
    expect((await a.delete('/api/leads/1')).statusCode).toBe(401);
    expect((await a.put('/api/profile/lead-form', { enabled: false })).statusCode).toBe(401);
  });

  it("never shows or deletes another owner's leads (404)", async () => {
    const alice = await ownerWithProfile({ fullName: 'Alice Owner' });
    const bob = await ownerWithProfile({ fullName: 'Bob Owner' });
    await postJson(alice.profile.id, lead({ name: 'For Alice' }));
    const aliceLead = (await alice.agent.get('/api/leads')).json().leads[0];
    const bobView = (await bob.agent.get('/api/leads')).json();
    expect(bobView.leads.map((l: any) => l.name)).not.toContain('For Alice');
    expect((await bob.agent.get('/api/leads.csv')).body).not.toContain('For Alice');
    expect((await bob.agent.get('/api/leads.vcf')).body).not.toContain('For Alice');
    expect((await bob.agent.delete(`/api/leads/${aliceLead.id}`)).statusCode).toBe(404);
    expect((await alice.agent.get('/api/leads')).json().total).toBe(1);
    expect((await alice.agent.delete(`/api/leads/${aliceLead.id}`)).statusCode).toBe(200);
    expect((await alice.agent.get('/api/leads')).json().total).toBe(0);
    expect((await alice.agent.delete(`/api/leads/${aliceLead.id}`)).statusCode).toBe(404);
    expect((await alice.agent.delete('/api/leads/abc')).statusCode).toBe(400);
  });

  it('pages the list and validates the query', async () => {
    const { agent, profile } = await ownerWithProfile();
    for (let i = 0; i < 3; i++) await postJson(profile.id, lead({ name: `Visitor ${i}` }));
    const page = (await agent.get('/api/leads?limit=2&offset=1')).json();
    expect(page.total).toBe(3);
    expect(page.leads.map((l: any) => l.name)).toEqual(['Visitor 1', 'Visitor 0']);
    for (const q of ['limit=0', 'limit=500', 'offset=-1', 'limit=abc', 'other=1']) expect((await agent.get(`/api/leads?${q}`)).statusCode, q).toBe(400);
  });

  it('answers an empty list before the profile exists', async () => {
    const { agent } = await signedInAgent(t.app);
    expect((await agent.get('/api/leads')).json()).toEqual({ total: 0, leads: [], formEnabled: false });
  });

  it('exports a CSV that a CSV parser reads back, with formula-looking cells neutralised', async () => {
    const { agent, profile } = await ownerWithProfile();
    await postJson(profile.id, lead({ name: 'Plain "Quoted" Name', company: 'Commas, Inc.', note: 'Line one\nLine two' }));
    await postJson(profile.id, lead({ name: '=HYPERLINK("http://evil.example","click")', company: '@SUM(A1:A2)', note: '-2+3', phone: '+1 212 555 0100' }));
    await postJson(profile.id, lead({ name: 'Zoë Ünïcode 山田', email: 'zoe@example.com', phone: '', company: '', note: '' }));
    const res = await agent.get('/api/leads.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const records = parseCsv(res.body, { bom: true, columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(3);
    const [uni, evil, plain] = records;
    // HubSpot's column names (issue 36), the name split by the one rule (decision 36-01)
    expect(plain).toMatchObject({ 'First Name': 'Plain', 'Last Name': '"Quoted" Name', 'Company Name': 'Commas, Inc.', Message: 'Line one\nLine two', Consent: 'yes', Email: 'ada@example.com' });
    expect(evil['First Name']).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(evil['Company Name']).toBe("'@SUM(A1:A2)");
    expect(evil.Message).toBe("'-2+3");
    // a phone number as it is: no apostrophe a CRM would keep in the number
    expect(evil['Phone Number']).toBe('+1 212 555 0100');
    expect(uni).toMatchObject({ 'First Name': 'Zoë', 'Last Name': 'Ünïcode 山田', 'Phone Number': '', 'Company Name': '', Message: '' });
    expect(new Date(uni.Received).toString()).not.toBe('Invalid Date');
    // no cell but a phone number starts with a formula character
    for (const r of records) for (const [k, v] of Object.entries(r)) if (k !== 'Phone Number') expect(v).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('exports contact files that a vCard parser reads back', async () => {
    const { agent, profile } = await ownerWithProfile();
    await postJson(profile.id, lead({ name: 'Ada King Lovelace', company: 'Engines; Looms, Ltd', note: 'Semi; colon, comma\nnew line' }));
    await postJson(profile.id, lead({ name: 'Charles Babbage', email: '', phone: '+44 20 0000 0000', company: '', note: '' }));
    const res = await agent.get('/api/leads.vcf');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/vcard');
    expect(res.headers['content-disposition']).toMatch(/filename="leads-\d{4}-\d{2}-\d{2}\.vcf"/);
    const cards = (res.body.match(/BEGIN:VCARD[\s\S]*?END:VCARD\r\n/g) ?? []).map((text) => new vCard().parse(text));
    expect(cards).toHaveLength(2);
    const value = (c: vCard, name: string) => {
      const p = c.get(name) as { valueOf(): string } | undefined;
      return p ? String(p.valueOf()) : undefined;
    };
    const unescape = (v: string | undefined) => v?.replace(/\\([\\,;nN])/g, (_m, ch: string) => (ch === 'n' || ch === 'N' ? '\n' : ch));
    const [babbage, ada] = cards;
    expect(value(ada, 'fn')).toBe('Ada King Lovelace');
    expect(value(ada, 'n')).toBe('King Lovelace;Ada;;;'); // decision 36-01: the first word is the given name
    expect(value(ada, 'email')).toBe('ada@example.com');
    expect(value(ada, 'tel')).toBe('+442079460018');
    expect(unescape(value(ada, 'org'))).toBe('Engines; Looms, Ltd');
    expect(unescape(value(ada, 'note'))).toMatch(/^Semi; colon, comma\nnew line\n\nShared with you through your Metal Cards NYC profile on \d{4}-\d{2}-\d{2}\.$/);
    expect(value(babbage, 'fn')).toBe('Charles Babbage');
    expect(value(babbage, 'email')).toBeUndefined();
    expect(value(babbage, 'org')).toBeUndefined();
    expect(value(babbage, 'tel')).toBe('+442000000000');
  });
});
