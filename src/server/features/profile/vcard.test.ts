import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import vCard from 'vcf';
import { buildVcard, escapeText, foldLine, vcardDisposition } from './vcard';
import type { PublicProfile } from '#shared/schemas/profile';

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

const input = (profile: Partial<PublicProfile> = {}) => ({
  profile: { ...base, ...profile },
  profileUrl: 'https://cards.example.com/p/abcd2345ef',
  qrCodeUrl: 'https://cards.example.com/api/qrcode?data=x',
  brandName: 'Metal Cards NYC',
});

/** vCard 3.0 text unescaping (the parser keeps values raw). */
const unescape = (v: string) => v.replace(/\\([\\,;nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
const props = (text: string) =>
  text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean)
    .map((l) => l.slice(0, l.search(/[:;]/)).toUpperCase());

describe('vCard writer', () => {
  it('escapes , ; \\ and newlines', () => {
    expect(escapeText('a,b;c\\d\ne\r\nf')).toBe('a\\,b\\;c\\\\d\\ne\\nf');
  });

  it('folds at 75 octets without breaking UTF-8', () => {
    const line = 'NOTE:' + 'é'.repeat(100);
    const folded = foldLine(line);
    for (const l of folded.split('\r\n')) expect(Buffer.byteLength(l)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(line);
    expect(folded).not.toContain('\ufffd');
  });

  it('a CR or LF in any field can never add a property (property test)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
        const evil = `${a}\r\nEMAIL:attacker@evil.example\nTEL:999${b}`;
        const text = buildVcard(input({ fullName: `X${evil}`, jobTitle: evil, companyName: evil, address: evil }));
        const names = props(text);
        expect(names.filter((n) => n === 'EMAIL;TYPE=INTERNET,PREF' || n === 'EMAIL')).toHaveLength(1);
        expect(names.filter((n) => n.startsWith('TEL'))).toHaveLength(1);
        expect(names[0]).toBe('BEGIN');
        expect(names[names.length - 1]).toBe('END');
      }),
      { numRuns: 60 },
    );
  });

  it('parses back with an independent parser, every field intact', () => {
    const text = buildVcard({
      ...input({
        links: [
          { id: 1, linkType: 'linkedin', url: 'https://linkedin.com/in/jane', label: null },
          { id: 2, linkType: 'website', url: 'https://jane.example', label: null },
        ],
      }),
      photoJpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]),
    });
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/); // CRLF only
    const card = new vCard().parse(text);
    expect(card.version).toBe('3.0');
    const v = (name: string) => {
      const p = card.get(name) as any;
      return Array.isArray(p) ? p.map((x) => unescape(x.valueOf())) : unescape(p.valueOf());
    };
    expect(v('fn')).toBe('Jane Q. Public');
    expect(v('n')).toBe('Public;Jane Q.;;;');
    expect(v('title')).toBe('Head of Sales');
    expect(v('org')).toBe('Acme, Inc.');
    expect(v('email')).toBe('jane@example.com');
    expect(v('tel')).toBe('+12125550199');
    expect((card.get('adr') as any).valueOf()).toBe(';;5th Ave\\, Suite 1\\; New York;;;;');
    expect(v('url')).toEqual(['https://jane.example', 'https://cards.example.com/p/abcd2345ef', 'https://linkedin.com/in/jane']);
    expect(v('xDigitalProfile')).toBe('https://cards.example.com/p/abcd2345ef');
    expect(v('xQrCode')).toBe('https://cards.example.com/api/qrcode?data=x');
    expect(card.get('note')).toBeUndefined();
    const photo = card.get('photo') as any;
    expect(photo.encoding).toBe('b');
    expect(photo.type).toBe('jpeg');
    expect(Buffer.from(photo.valueOf(), 'base64')[0]).toBe(0xff);
  });

  it('leaves out empty properties and uses the profile URL when there is no website', () => {
    const text = buildVcard(input({ jobTitle: null, email: '', phoneNumber: null, address: '  ', companyName: null }));
    const names = props(text);
    for (const n of ['TITLE', 'ORG', 'TEL', 'ADR', 'PHOTO', 'LOGO']) expect(names.some((x) => x.startsWith(n)), n).toBe(false);
    expect(names.some((x) => x.startsWith('EMAIL'))).toBe(false);
    expect(text).toContain('\r\nURL:https://cards.example.com/p/abcd2345ef\r\n');
    expect(text).not.toMatch(/^[A-Z-]+(;[^:]*)?:\r$/m);
  });

  it('names the file after the person, safely', () => {
    expect(vcardDisposition('Jane Q. Public')).toBe(`attachment; filename="Jane Q. Public.vcf"; filename*=UTF-8''Jane%20Q.%20Public.vcf`);
    const d = vcardDisposition('Zoë "x"/..\\evil');
    expect(d).toMatch(/^attachment; filename="[^"/\\]*\.vcf"/);
    expect(d).toContain("filename*=UTF-8''Zo%C3%AB");
  });
});
