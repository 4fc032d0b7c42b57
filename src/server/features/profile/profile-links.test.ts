import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';

/** Issue 37 item 1: the profile's links within the shop's limit (decision 37-03). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const links = (n: number) => Array.from({ length: n }, (_, i) => ({ linkType: 'website', url: `https://site${i + 1}.example.com` }));
const body = (over: Record<string, unknown> = {}) => ({ fullName: 'Ada Lovelace', profileTemplate: 'classic', ...over });

describe('profile links within the shop limit', () => {
  it('refuses a 4th link by default, then accepts 5 once staff raise the limit to 5', async () => {
    const { agent } = await signedInAgent(t.app);
    const refused = await agent.post('/api/profile', body({ links: links(4) }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: 'You can add up to 3 links', errors: { links: 'You can add up to 3 links' } });
    const designer = await agent.put('/api/profile', body({ links: links(4) }));
    expect(designer.statusCode).toBe(400);
    expect(designer.json().errors).toEqual({ links: 'You can add up to 3 links' });

    const created = await agent.post('/api/profile', body({ links: links(3) }));
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;

    const staff = (await adminAgent(t.app)).agent;
    expect((await staff.put('/api/admin/settings', { maxProfileLinks: 5 })).statusCode).toBe(200);
    expect((await agent.get('/api/site/settings')).json().maxProfileLinks).toBe(5);

    const saved = created.json().links.map(({ id: linkId, linkType, url }: any) => ({ id: linkId, linkType, url }));
    const five = await agent.put(`/api/profile/${id}`, body({ links: [...saved, ...links(5).slice(3)] }));
    expect(five.statusCode).toBe(200);
    expect(five.json().links).toHaveLength(5);
    // the saved 5 plus a new one is over the shop's limit, with the limit in the message
    const six = await agent.put(`/api/profile/${id}`, body({ links: [...five.json().links.map(({ id: linkId, linkType, url }: any) => ({ id: linkId, linkType, url })), { linkType: 'github', url: 'https://github.com/ada' }] }));
    expect(six.statusCode).toBe(400);
    expect(six.json().errors).toEqual({ links: 'You can add up to 5 links' });
  });

  it('writes each type\'s address its own way, keeps labels, and says what is wrong beside the field', async () => {
    const { agent } = await signedInAgent(t.app);
    const staff = (await adminAgent(t.app)).agent;
    expect((await staff.put('/api/admin/settings', { maxProfileLinks: 10 })).statusCode).toBe(200);
    const sent = [
      { linkType: 'email', url: 'Ada@Example.com' },
      { linkType: 'phone', url: '+44 20 7946 0958' },
      { linkType: 'whatsapp', url: '+1 (212) 555-0100' },
      { linkType: 'tiktok', url: '@ada' },
      { linkType: 'booking', url: 'calendly.com/ada/30min' },
      { linkType: 'custom', url: 'https://ada.example.com/talks', label: '  My   talks ' },
      { linkType: 'other', url: 'https://old.example.com' },
      { linkType: 'youtube', url: 'https://youtube.com/@ada', label: '' },
    ];
    const res = await agent.post('/api/profile', body({ links: sent }));
    expect(res.statusCode).toBe(201);
    expect(res.json().links.map((l: any) => [l.linkType, l.url, l.label])).toEqual([
      ['email', 'mailto:Ada@Example.com', null],
      ['phone', 'tel:+442079460958', null],
      ['whatsapp', 'https://wa.me/12125550100', null],
      ['tiktok', 'https://www.tiktok.com/@ada', null],
      ['booking', 'https://calendly.com/ada/30min', null],
      ['custom', 'https://ada.example.com/talks', 'My talks'],
      ['other', 'https://old.example.com', null],
      ['youtube', 'https://youtube.com/@ada', null],
    ]);
    const profile = res.json();

    // the public page: each link with its label, e-mail and phone without a new tab
    const html = (await agent.get(`/p/${profile.id}`)).body;
    expect(html).toContain('My talks');
    expect(html).toContain('WhatsApp');
    expect(html.indexOf('WhatsApp')).toBeLessThan(html.indexOf('My talks'));
    // the contact file keeps the addresses, labelled
    const vcf = (await agent.get(`/api/vcard/${profile.id}`)).body;
    expect(vcf).toContain('https://wa.me/12125550100');
    expect(vcf).toContain('X-ABLabel:My talks');

    const refused = await agent.put(`/api/profile/${profile.id}`, body({
      links: [
        { linkType: 'email', url: 'not-an-address' },
        { linkType: 'whatsapp', url: '212 555 0100' },
        { linkType: 'custom', url: 'https://ada.example.com' },
        { linkType: 'website', url: 'https://ada.example.com', label: 'x'.repeat(41) },
        { linkType: 'phone', url: 'call me' },
        { linkType: 'pdf', url: 'javascript:alert(1)' },
      ],
    }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({
      'links.0.url': 'Please enter a valid email address',
      'links.1.url': 'Please enter a WhatsApp number with its country code, e.g. +1 212 555 0100',
      'links.2.label': 'Please enter a label for this link',
      'links.3.label': 'Label must be at most 40 characters',
      'links.4.url': 'Please enter a valid phone number',
      'links.5.url': 'Please enter a valid URL starting with http:// or https://',
    });
  });
});
