import { describe, expect, it } from 'vitest';
import { buildVcard } from './vcard';
import { phoneE164 } from '#shared/profile/phone';
import { companyVcard } from '#server/features/engagement/card-code-pages';
import type { PublicProfile } from '#shared/schemas/profile';

/**
 * Issue 37 item 6, decision 37-09: the contact file carries no marketing note of ours, and its
 * phone numbers are in E.164 (where the number gives or implies its country).
 */
const profile: PublicProfile = {
  id: 'abcd2345ef',
  handle: null,
  fullName: 'Jane Public',
  jobTitle: null,
  email: null,
  phoneNumber: '(212) 555-0199',
  address: null,
  companyName: null,
  profileTemplate: 'classic',
  customPhotoUrl: null,
  logoUrl: null,
  bannerLogoUrl: null,
  links: [],
};
const card = (p: Partial<PublicProfile> = {}) =>
  buildVcard({ profile: { ...profile, ...p }, profileUrl: 'https://cards.example.com/p/abcd2345ef', qrCodeUrl: 'https://cards.example.com/q', brandName: 'Metal Cards NYC' });
const tel = (text: string) => /\r\nTEL[^:]*:([^\r]*)/.exec(text)?.[1];

describe('the vCard: no marketing note, phones in E.164', () => {
  it('has no NOTE and no mention of the shop', () => {
    const text = card();
    expect(text).not.toMatch(/\r\nNOTE[:;]/);
    expect(text).not.toContain('Metal Cards NYC');
    expect(text).not.toContain('Digital business card by');
  });

  it('writes phone numbers in E.164', () => {
    expect(tel(card())).toBe('+12125550199');
    expect(tel(card({ phoneNumber: '1-212-555-0199' }))).toBe('+12125550199');
    expect(tel(card({ phoneNumber: '+44 20 7946 0958' }))).toBe('+442079460958');
    expect(tel(card({ phoneNumber: '0048 22 123 45 67' }))).toBe('+48221234567');
    // a national number of an unknown country is not guessed: its digits only
    expect(tel(card({ phoneNumber: '030 1234 5678' }))).toBe('03012345678');
    expect(companyVcard({ name: 'Acme', phone: '+1 (212) 555-0100', email: null, address: null, website: null } as never)).toContain('TEL;TYPE=WORK,VOICE:+12125550100\r\n');
  });

  it('phoneE164: countries kept, North American numbers completed, nothing invented', () => {
    expect(phoneE164('+1 212 555 0100')).toBe('+12125550100');
    expect(phoneE164('212.555.0100')).toBe('+12125550100');
    expect(phoneE164('12125550100')).toBe('+12125550100');
    expect(phoneE164('+33 1 23 45 67 89')).toBe('+33123456789');
    expect(phoneE164('0123456789')).toBe('0123456789'); // starts with 0: not North American
    expect(phoneE164('not a phone')).toBeNull();
  });
});
