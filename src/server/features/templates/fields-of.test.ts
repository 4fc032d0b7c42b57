import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldsOf } from './template-versions.service';

/** The regular expressions fieldsOf replaced (issue 32): the linear scan must find the same names. */
function byRegex(svg: string): Set<string> {
  const out = new Set<string>();
  for (const m of svg.matchAll(/\bdata-(field|slot)\s*=\s*["']([A-Za-z]+)["']/g)) out.add(m[1] === 'slot' ? `${m[2]} code` : m[2]);
  for (const m of svg.matchAll(/\{\{\s*([A-Za-z]+)\s*\}\}/g)) out.add(m[1]);
  return out;
}

describe('fieldsOf (template fields, slots and tokens)', () => {
  it('finds what the old regular expressions found, on generated template text', () => {
    const piece = fc.constantFrom('data-', 'field', 'slot', '=', ' ', '\n', '\u00a0', '"', "'", '{{', '}}', '{', '}', 'x', 'fullName', 'qr', '_', '1', '<text ', '/>', '-');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const svg = parts.join('');
        expect([...fieldsOf(svg)].sort()).toEqual([...byRegex(svg)].sort());
      }),
      { numRuns: 3000 },
    );
    expect([...fieldsOf('<text data-field="fullName"/><g data-slot = \'qr\'/>{{ email }} x_data-field="no"')].sort()).toEqual(['email', 'fullName', 'qr code']);
  });

  it('is linear on hostile runs (a 3 MB template body of unfinished names and tokens)', () => {
    for (const unit of ['data-field ', 'data-field="', '{{ ', '{{a', '{{' + ' '.repeat(50)]) {
      const svg = unit.repeat(Math.ceil((3 * 1024 * 1024) / unit.length));
      const t0 = performance.now();
      fieldsOf(svg);
      expect(performance.now() - t0, unit).toBeLessThan(1000);
    }
  });
});
