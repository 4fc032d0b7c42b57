import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { buildEmailSignature, type SignatureProfile } from './email-signature';
import { QrCodeGetQuery } from '#shared/schemas/profile';

const ORIGIN = 'https://cards.example.test';
const profile: SignatureProfile = {
  id: 'abcd2345ef',
  fullName: 'Grace Hopper',
  jobTitle: 'Rear Admiral',
  companyName: 'US Navy',
  email: 'grace@example.com',
  phoneNumber: '+1 (212) 555-0100',
  customPhotoUrl: '/files/uploads/abc123def456ghij.jpg',
  links: [
    { linkType: 'website', url: 'https://grace.example.com' },
    { linkType: 'linkedin', url: 'https://linkedin.com/in/grace' },
  ],
};

const parse = (html: string) => new JSDOM(`<!doctype html><body>${html}</body>`).window.document;

describe('e-mail signature', () => {
  it('is a table with inline styles only, absolute hosted images and links to the public page', () => {
    const sig = buildEmailSignature(profile, { origin: ORIGIN + '/' });
    const doc = parse(sig.html);
    expect(doc.body.firstElementChild?.tagName).toBe('TABLE');
    expect(doc.querySelectorAll('style, script, link, svg, div[style*="flex"]')).toHaveLength(0);
    expect(sig.html).not.toMatch(/class=|display:\s*flex|grid|url\(/);
    const imgs = [...doc.querySelectorAll('img')];
    expect(imgs.map((i) => i.getAttribute('src'))).toEqual([
      `${ORIGIN}/files/uploads/abc123def456ghij.jpg`,
      `${ORIGIN}/api/qrcode?data=${encodeURIComponent(`${ORIGIN}/p/abcd2345ef`)}&size=160&margin=4&format=png`,
    ]);
    for (const img of imgs) {
      expect(img.getAttribute('width')).toBe('80');
      expect(img.getAttribute('height')).toBe('80');
      expect(img.getAttribute('alt')).toBeTruthy();
      expect(img.getAttribute('style')).toContain('display:block');
    }
    const hrefs = [...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual([
      'mailto:grace@example.com',
      'tel:+12125550100',
      'https://grace.example.com',
      'https://linkedin.com/in/grace',
      `${ORIGIN}/p/abcd2345ef?src=link`,
      `${ORIGIN}/p/abcd2345ef?src=link`,
    ]);
    expect(doc.body.textContent).toContain('Rear Admiral | US Navy');
    expect(doc.body.textContent).toContain('View my digital business card');
    // every text-bearing cell carries its own font (clients drop inherited styles)
    for (const td of doc.querySelectorAll('td')) if (!td.querySelector('table, img')) expect(td.getAttribute('style')).toContain('font-family:Arial');
  });

  it('asks the QR endpoint for a valid PNG of the profile URL', () => {
    const sig = buildEmailSignature(profile, { origin: ORIGIN });
    const url = new URL(sig.qrImageUrl);
    expect(url.pathname).toBe('/api/qrcode');
    const q = QrCodeGetQuery.parse(Object.fromEntries(url.searchParams));
    expect(q).toMatchObject({ data: `${ORIGIN}/p/abcd2345ef`, format: 'png', size: 160 });
  });

  it('has a plain-text twin', () => {
    const sig = buildEmailSignature(profile, { origin: ORIGIN });
    expect(sig.text.split('\n')).toEqual([
      'Grace Hopper',
      'Rear Admiral | US Navy',
      'Email: grace@example.com',
      'Phone: +1 212-555-0100',
      'Website: https://grace.example.com',
      'LinkedIn: https://linkedin.com/in/grace',
      `Digital business card: ${ORIGIN}/p/abcd2345ef?src=link`,
    ]);
  });

  it('leaves out what is off or missing', () => {
    const sig = buildEmailSignature(
      { ...profile, jobTitle: null, companyName: null, email: null, phoneNumber: null, customPhotoUrl: null },
      { origin: ORIGIN, showQr: false, showLinks: false },
    );
    const doc = parse(sig.html);
    expect(doc.querySelectorAll('img')).toHaveLength(0);
    expect([...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([`${ORIGIN}/p/abcd2345ef?src=link`]);
    expect(sig.text).toBe(`Grace Hopper\nDigital business card: ${ORIGIN}/p/abcd2345ef?src=link`);
    expect(buildEmailSignature(profile, { origin: ORIGIN, showPhoto: false }).html).not.toContain('/files/uploads/');
  });

  it('escapes every value and drops links that are not http(s)', () => {
    const sig = buildEmailSignature(
      {
        ...profile,
        fullName: '<img src=x onerror=alert(1)> "Q" & Co',
        jobTitle: '</td></tr></table><b>x</b>',
        links: [
          { linkType: 'other', url: 'javascript:alert(1)' },
          { linkType: 'website', url: 'https://ok.example/?a=1&b="2"' },
        ],
      },
      { origin: ORIGIN, accent: 'red;background:url(x)' },
    );
    const doc = parse(sig.html);
    expect(doc.querySelectorAll('img[onerror], b, script')).toHaveLength(0);
    expect(doc.body.textContent).toContain('<img src=x onerror=alert(1)> "Q" & Co');
    expect(sig.html).not.toContain('javascript:');
    expect([...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toContain('https://ok.example/?a=1&b="2"');
    // a bad accent falls back to the default colour
    expect(sig.html).not.toContain('url(x)');
    expect(sig.html).toContain('#b8860b');
  });
});
