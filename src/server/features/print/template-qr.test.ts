import { describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '#shared/templates/builtin';
import { cardCodeQrText } from '#shared/schemas/engagement';
import { publicProfileUrl } from '#shared/routes';
import { qrMatrix } from '#shared/qr/qr-svg';
import { qrDecodeCheck, qrModuleCheck, quietZoneCheck } from './art/checks';
import { printProofTask } from './print.task';

/**
 * Issue 36: every seeded template's printed QR code keeps a 4-module quiet zone with modules the
 * engraver holds, at every data length our cards carry. The code shrinks inside its slot as the
 * version grows (fill.ts CARD_QR_MARGIN), so the shortest and the longest data are both proved, on
 * an engraving that lightens (standard), one that darkens (titanium) and colour print.
 */
const MIN_MODULE_MM = 0.5; // PRINT_MIN_QR_MODULE_MM's default

const DATA = [
  // a test app's own origin and a profile id (10 characters): version 3
  publicProfileUrl('http://localhost:80', 'abcd2345ef'),
  // the longest test PUBLIC_URL, and the batch short link (alphanumeric, upper-cased)
  publicProfileUrl('https://cards.example.test', 'abcd2345ef'),
  cardCodeQrText('https://cards.example.test', 'ZZZZZZ'),
  // the browser tests' server
  publicProfileUrl('http://127.0.0.1:65535', 'abcd2345ef'),
  // the longest profile URL a version 4 code holds at level M (62 bytes): a 49-character origin
  publicProfileUrl(`https://${'m'.repeat(37)}.com`, 'abcd2345ef'),
];

const person = { fullName: 'Zoë O’Brien-Łukasz', email: 'zoe.obrien@example.com', jobTitle: 'Head of Partnerships', phoneNumber: '+1 212 555 0100', companyName: 'Müller & Söhne, Inc.', website: 'https://example.com' };

describe('seeded templates: the printed QR code (issue 36)', () => {
  it('the data covers versions 2 to 4', () => {
    const versions = DATA.map((d) => (qrMatrix(d, 'M').length - 17) / 4);
    expect(Math.min(...versions)).toBeLessThanOrEqual(2);
    expect(Math.max(...versions)).toBe(4);
    expect(DATA[DATA.length - 1]).toHaveLength(62);
  });

  for (const t of BUILTIN_TEMPLATES) {
    it(`template ${t.id} (${t.name}): decode, module size and quiet zone ok on every side with a QR, short to long data`, async () => {
      const sidesWithQr = [t.front, t.back].filter((s) => s.includes('data-slot="qr"'));
      expect(sidesWithQr.length).toBeGreaterThan(0);
      for (const cardType of ['standard', 'luxury_titanium', 'color']) {
        for (const url of DATA) {
          const m = await printProofTask({ cardType, front: t.front, back: t.back, data: person, qrUrl: url, logoHref: null, title: 'test' });
          const items = [qrDecodeCheck({ expectedUrl: url, decoded: m.decodedText, hasQr: m.hasQr }), qrModuleCheck(m.qrModuleMm, MIN_MODULE_MM), quietZoneCheck(m.decodedText ? m.quietZoneModules : null)];
          const label = `template ${t.id}, ${cardType}, ${url.length} characters`;
          for (const item of items) expect(item.status, `${label}: ${item.id} ${item.figure}`).toBe('ok');
          expect(m.quietZoneModules, label).toBeGreaterThanOrEqual(4);
        }
      }
    }, 180_000);
  }
});
