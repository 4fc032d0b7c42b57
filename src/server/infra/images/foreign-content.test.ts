import { cpuMs } from '#tests/helpers/cpu';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsForeignContent } from './images';

/** The regular expression the polyglot check used over the whole file (issue 32): the byte search must agree. */
const OLD_MARKERS = /<(script|html|body|iframe|svg|object|embed|meta|\?php|!doctype)[\s>/]|javascript:/i;
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('containsForeignContent (polyglot markers, searched linearly on the request thread)', () => {
  it('agrees with the old regular expression on generated files', () => {
    const piece = fc.oneof(
      fc.constantFrom('<', 'script', 'SCRIPT', 'ScRiPt', 'html', 'body', 'iframe', 'svg', 'object', 'embed', 'meta', '?php', '!DocType', 'javascript', 'JavaScript', ':', ' ', '\t', '\u00a0', '>', '/', 'x', '<<'),
      fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const body = Buffer.from(parts.join(''), 'latin1');
        const file = Buffer.concat([PNG_HEAD, body]);
        expect(containsForeignContent(file, 'image/png')).toBe(OLD_MARKERS.test(file.toString('latin1')));
      }),
      { numRuns: 5000 },
    );
  });

  it('takes linear time on 10 MB of near-misses', () => {
    for (const unit of ['<', '<scrip', '<script', 'javascript', '<!doctyp']) {
      const file = Buffer.concat([PNG_HEAD, Buffer.from(unit.repeat(Math.ceil(10_000_000 / unit.length)), 'latin1')]);
      // this thread's CPU, not the clock: other test files share the cores; a sanity bound (a
      // quadratic scan of 10 MB takes minutes), not a speed bar
      expect(cpuMs(() => containsForeignContent(file, 'image/png')), unit).toBeLessThan(5_000);
    }
  });
});
