import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { cardCodes } from '#server/db/schema/engagement';
import { companyCodePage, companyVcard } from './card-code-pages';

/** Issue 37 item 1 (decision 37-04): the page a removed member's team card shows is the company's, branded, with its contact file. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const COMPANY = { name: 'Northwind Trading', email: 'hello@northwind.test', phone: '+1 212 555 0100', address: '1 Main St, New York', website: 'https://northwind.test', logoUrl: '/files/logos/northwind.png', primaryColor: '#0b3d2e' };

describe('company page of a turned-off team card', () => {
  it('shows the team logo on its colour and offers the company contact file, naming no person', () => {
    const html = companyCodePage(COMPANY, '/c/abc123/company.vcf');
    expect(html).toContain('class="pp-page pp-branded" style="--pp-primary:#0b3d2e"');
    expect(html).toContain('<img class="pp-header-logo" src="/files/logos/northwind.png" alt="Northwind Trading logo"');
    expect(html).toMatch(/<a class="pp-save" href="\/c\/abc123\/company.vcf" download="" type="text\/vcard">Save company contact<\/a>/);
    expect(html).toContain('+1 212 555 0100');
    const card = companyVcard({ ...COMPANY, name: 'North; wind, Inc' });
    expect(card).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\nFN:North\\; wind\\, Inc\r\nORG:North\\; wind\\, Inc\r\n/);
    expect(card).toContain('TEL;TYPE=WORK,VOICE:+12125550100\r\n');
    expect(card).toContain('ADR;TYPE=WORK:;;1 Main St\\, New York;;;;\r\n');
    expect(card.endsWith('END:VCARD\r\n')).toBe(true);
  });

  it('GET /c/{code} and /c/{code}/company.vcf over HTTP; an active or unknown code has no company file', async () => {
    const owner = await signedInAgent(t.app, { firstName: 'Olivia', lastName: 'Owner' });
    const team = await owner.agent.post('/api/team', { name: 'Northwind', companyName: 'Northwind Trading', companyPhone: '+1 212 555 0100', companyEmail: 'hello@northwind.test', address: '1 Main St, New York', website: 'https://northwind.test' });
    expect(team.statusCode, team.body).toBe(201);
    expect((await owner.agent.put('/api/team/brand', { primaryColor: '#0b3d2e', accentColor: '#7a1f1f', lockedFields: [] })).statusCode).toBe(200);
    const teamId = (await owner.agent.get('/api/team')).json().team.id as string;
    const code = `NW${Date.now().toString(36).toUpperCase()}`.slice(0, 10);
    await t.app.ctx.db.insert(cardCodes).values({ code, teamId, active: false, label: 'Ann' });

    const page = await t.app.inject({ method: 'GET', url: `/c/${code.toLowerCase()}` });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('--pp-primary:#0b3d2e');
    expect(page.body).toContain(`href="/c/${code.toLowerCase()}/company.vcf"`);
    const file = await t.app.inject({ method: 'GET', url: `/c/${code.toLowerCase()}/company.vcf` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/vcard; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="Northwind Trading.vcf"');
    expect(file.body).toContain('FN:Northwind Trading');
    expect(file.body).toContain('EMAIL;TYPE=INTERNET,WORK:hello@northwind.test');

    const live = `LV${Date.now().toString(36).toUpperCase()}`.slice(0, 10);
    await t.app.ctx.db.insert(cardCodes).values({ code: live, teamId, active: true, label: 'Bob' });
    for (const c of [live, 'NOPE12345', '%00']) {
      const res = await t.app.inject({ method: 'GET', url: `/c/${c}/company.vcf` });
      expect(res.statusCode, c).toBe(404);
      expect(res.headers['content-type'], c).toContain('text/html');
    }
  });
});
