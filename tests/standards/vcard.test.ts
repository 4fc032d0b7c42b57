import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { PublicProfile } from '#shared/schemas/profile';
import type { Lead } from '#shared/schemas/engagement';
import { buildVcard } from '#server/features/profile/vcard';
import { leadsVcf } from '#server/features/engagement/leads-export';
import { NAMES_IN_SCRIPTS } from './tools';

/**
 * Issue 36: contact files parsed by ical.js (an independent vCard parser): names and addresses in
 * several scripts come back as written; N keeps compound family names whole (decision 36-01).
 */
const base: PublicProfile = {
  id: 'abcd2345ef',
  handle: null,
  fullName: 'Jane Q. Public',
  jobTitle: 'Head of Sales',
  email: 'jane@example.com',
  phoneNumber: '+1 212 555 0199',
  address: '5th Ave, Suite 1; New York',
  companyName: 'Acme, Inc.',
  profileTemplate: 'classic',
  customPhotoUrl: null,
  logoUrl: null,
  bannerLogoUrl: null,
  links: [],
};
const card = (p: Partial<PublicProfile>) =>
  new ICAL.Component(ICAL.parse(buildVcard({ profile: { ...base, ...p }, profileUrl: 'https://cards.example.com/p/abcd2345ef', qrCodeUrl: 'https://cards.example.com/api/qrcode?data=x', brandName: 'Metal Cards NYC' })));

const ADDRESSES = ['ul. Świętokrzyska 14, 00-050 Warszawa', 'Λεωφόρος Βασιλίσσης Σοφίας 5, Αθήνα', 'ул. Тверская, д. 7; Москва', '12 Đường Lê Lợi, Quận 1, TP. Hồ Chí Minh', 'Karlova 1, 110 00 Praha 1'];

describe('vCard through ical.js', () => {
  it('names, companies and addresses in several scripts parse back as written', () => {
    NAMES_IN_SCRIPTS.forEach((name, i) => {
      const address = ADDRESSES[i % ADDRESSES.length];
      const c = card({ fullName: name, companyName: NAMES_IN_SCRIPTS[1], address });
      expect(c.name).toBe('vcard');
      expect(c.getFirstPropertyValue('fn')).toBe(name);
      expect(c.getFirstPropertyValue('org')).toBe(NAMES_IN_SCRIPTS[1]);
      const adr = c.getFirstProperty('adr')!.getFirstValue() as string[];
      expect(adr[2]).toBe(address);
      // N: the family and given names together are the full name
      const n = c.getFirstProperty('n')!.getFirstValue() as string[];
      expect(`${n[1]} ${n[0]}`.trim()).toBe(name);
    });
  });

  it('N keeps compound family names whole, the same rule as the CSVs', () => {
    const n = (fullName: string) => card({ fullName }).getFirstProperty('n')!.getFirstValue() as string[];
    expect(n('Jan van der Berg').slice(0, 2)).toEqual(['van der Berg', 'Jan']);
    expect(n('María García López').slice(0, 2)).toEqual(['García López', 'María']);
    expect(n("Zoë O'Brien-Łukasz").slice(0, 2)).toEqual(["O'Brien-Łukasz", 'Zoë']);
    expect(n('Jane Q. Public').slice(0, 2)).toEqual(['Public', 'Jane Q.']);
    expect(n('Cher').slice(0, 2)).toEqual(['', 'Cher']);
  });

  it("the leads' contact file: every card parses, names in every script", () => {
    const leads: Lead[] = NAMES_IN_SCRIPTS.map((name, i) => ({ id: i, name, email: null, phone: '+48 601 234 567', company: 'Müller & Söhne, Inc.', note: 'Met at; the fair,\nbooth 4', consent: true, createdAt: '2026-11-26T10:00:00.000Z' }));
    const parsed = ICAL.parse(leadsVcf(leads)) as unknown[];
    const cards = (Array.isArray(parsed[0]) ? parsed : [parsed]).map((j) => new ICAL.Component(j as any[]));
    expect(cards.map((c) => c.getFirstPropertyValue('fn'))).toEqual(NAMES_IN_SCRIPTS);
    // ical.js (vCard 3 mode) unescapes \n and \, in NOTE but leaves the RFC 2426 escape \; as it is
    expect(cards[0].getFirstPropertyValue('note')).toMatch(/^Met at\\?; the fair,\nbooth 4/);
  });
});
