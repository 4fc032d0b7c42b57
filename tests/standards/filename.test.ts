import { parse as parseDisposition } from 'content-disposition';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vcardDisposition } from '#server/features/profile/vcard';
import { passDisposition } from '#server/features/wallet/wallet.service';

/**
 * Issue 36: download names (RFC 6266 + RFC 8187) parse with the `content-disposition` package; the
 * ASCII `filename=` fallback transliterates ("Łukasz" -> "Lukasz") instead of dropping letters, and
 * `filename*=UTF-8''` keeps the name as written.
 */
describe('Content-Disposition download names', () => {
  it('transliterates the ASCII fallback and keeps the UTF-8 name', () => {
    const cases: Array<[string, string]> = [
      ["Zoë O'Brien-Łukasz", "Zoe O'Brien-Lukasz"],
      ['Łukasz Żółć', 'Lukasz Zolc'],
      ['Søren Ørsted', 'Soren Orsted'],
      ['Đặng Thị Hương', 'Dang Thi Huong'],
      ['Straße Æsir Œuvre Þór', 'Strasse AEsir OEuvre Thor'],
      ['Işıl Çelik', 'Isil Celik'],
      ['Jiří Dvořák', 'Jiri Dvorak'],
    ];
    for (const [name, ascii] of cases) {
      for (const [make, ext] of [
        [vcardDisposition, 'vcf'],
        [passDisposition, 'pkpass'],
      ] as const) {
        const header = make(name);
        expect(header).toContain(`filename="${ascii}.${ext}"`);
        // the package prefers filename* (RFC 6266 section 4.3): the name as written
        expect(parseDisposition(header).parameters.filename, header).toBe(`${name}.${ext}`);
      }
    }
  });

  it('any generated name: the header parses, the UTF-8 name round-trips, the fallback is printable ASCII', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }), (name) => {
        const header = vcardDisposition(name);
        const parsed = parseDisposition(header);
        expect(parsed.type).toBe('attachment');
        expect(parsed.parameters.filename.endsWith('.vcf')).toBe(true);
        expect(/filename="([\x20-\x7e]*)"/.test(header)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
