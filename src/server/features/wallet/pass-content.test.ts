import { describe, expect, it } from 'vitest';
import type { PublicProfile } from '#shared/schemas/profile';
import { applePassContent, googleGenericObject, googleIds, passColor, publicPhotoUrl } from './pass-content';

const base: PublicProfile = {
  id: 'abcd2345ef',
  handle: null,
  fullName: 'Jane Q. Public',
  jobTitle: 'Head of Sales',
  email: 'jane@example.com',
  phoneNumber: '+1 212 555 0199',
  address: null,
  companyName: 'Acme, Inc.',
  profileTemplate: 'classic',
  customPhotoUrl: null,
  logoUrl: null,
  bannerLogoUrl: null,
  links: [{ id: 7, linkType: 'linkedin', url: 'https://linkedin.com/in/jane', label: null }],
};
const URL_ = 'https://cards.example.com/p/abcd2345ef';

describe('wallet pass content', () => {
  it('puts the name first, title and company second, and the profile URL in the QR code', () => {
    const c = applePassContent(base, URL_);
    expect(c.serialNumber).toBe('abcd2345ef');
    expect(c.primaryFields).toEqual([{ key: 'name', label: 'Name', value: 'Jane Q. Public' }]);
    expect(c.secondaryFields.map((f) => f.value)).toEqual(['Head of Sales', 'Acme, Inc.']);
    expect(c.barcodeMessage).toBe(URL_);
    expect(c.backFields).toEqual(expect.arrayContaining([{ key: 'link-7', label: 'LinkedIn', value: 'https://linkedin.com/in/jane' }]));
    expect(c.backgroundColor).toBe('rgb(29, 78, 216)');
  });

  it('leaves out what the profile does not have, and keeps every front field on one line', () => {
    const c = applePassContent({ ...base, jobTitle: null, companyName: '  ', fullName: 'Jane\nQ.\r\n  Public ' }, URL_);
    expect(c.secondaryFields).toEqual([]);
    expect(c.primaryFields[0].value).toBe('Jane Q. Public');
    expect(c.logoText).toBe('Metal Cards NYC');
    const g = googleGenericObject({ ...base, jobTitle: null, companyName: null }, URL_, '3388000000012345678', null);
    expect(g).not.toHaveProperty('subheader');
    expect(g).not.toHaveProperty('textModulesData');
    expect(g).not.toHaveProperty('logo');
    expect(g.cardTitle.defaultValue.value).toBe('Metal Cards NYC');
  });

  it("takes the team's brand colour, else the layout's", () => {
    expect(passColor({ ...base, profileTemplate: 'creative' })).toBe('#c2410c');
    expect(passColor({ ...base, brand: { teamName: 'Acme', primaryColor: '#0f766e', accentColor: '#1d4ed8' } })).toBe('#0f766e');
    expect(applePassContent({ ...base, brand: { teamName: 'Acme', primaryColor: '#0f766e', accentColor: '#1d4ed8' } }, URL_).backgroundColor).toBe('rgb(15, 118, 110)');
  });

  it('makes Google ids of the issuer id and a safe suffix', () => {
    expect(googleIds('3388000000012345678', 'abcd2345ef')).toEqual({ classId: '3388000000012345678.digital_profile', objectId: '3388000000012345678.profile_abcd2345ef' });
    expect(googleIds('1', 'a b/c').objectId).toBe('1.profile_a_b_c');
  });

  it('gives Google the photo only as a public https address of a stored file', () => {
    expect(publicPhotoUrl('https://cards.example.com', '/files/uploads/2026/abc.jpg')).toBe('https://cards.example.com/files/uploads/2026/abc.jpg');
    expect(publicPhotoUrl('http://localhost:3000', '/files/uploads/2026/abc.jpg')).toBeNull();
    expect(publicPhotoUrl('https://cards.example.com', 'https://elsewhere.example/x.jpg')).toBeNull();
    expect(publicPhotoUrl('https://cards.example.com', null)).toBeNull();
  });
});
