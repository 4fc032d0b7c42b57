import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanSvg, SVG_BUDGETS } from './svg-scan';
import { ATTACK_CLASSES, hostileSvgOf, type AttackClass } from '#tests/helpers/hostile-svg';
import { sanitizeSvg, SvgRejectedError } from './svg-sanitize';
import { rasterizeSvgTask } from '#server/infra/images/images.task';

/**
 * Issue 32, decision 32-01 "Sanitize-cost budgets": every shape of every hostile class
 * (tests/helpers/hostile-svg.ts), at about 1 MB and about 100 KB, costs the sandbox child little:
 * sanitizeSvg (the scan and the allow-list pass, decision 32-08) plus the logo rasterization of what it accepts
 * finish under a CPU-time bound, or the linear scan refuses the file with a 400 that names the
 * reason. Measured in process (no pool) with process.cpuUsage (all threads, resvg included).
 * The bound is generous for a shared two-core machine (the target is < 500 ms for 1 MB).
 */
// 1 s: every shape passed under 400 ms of CPU beside five busy processes once the sanitize became
// one linear pass (jsdom and DOMPurify had cost about 1 s for ~5,000 plain elements); a quadratic
// shape costs minutes
const CPU_BOUND_MS = Number(process.env.SVG_COST_BOUND_MS ?? 1000);
// pure in-process work: once is enough (the postgres project would only repeat it under more load)
const unitOnly = process.env.TEST_DB_KIND === 'postgres';
const SIZES = [100 * 1024, 1000 * 1024];

/** every variant a class's grammar can pick (found by walking seeds until no new one appears) */
function variants(cls: AttackClass, bytes: number) {
  const seen = new Map<string, Buffer>();
  let quiet = 0;
  for (let seed = 1; seed < 400 && quiet < 40; seed++) {
    const h = hostileSvgOf(cls, seed, bytes);
    const key = h.variant.replace(/\d{3,}/g, 'N');
    if (seen.has(key)) quiet++;
    else {
      quiet = 0;
      seen.set(key, h.svg);
    }
  }
  return [...seen.entries()];
}

function cpuMs(fn: () => void): number {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

function costOf(svg: Buffer): { ms: number; outcome: string } {
  let outcome = 'accepted';
  const ms = cpuMs(() => {
    let clean: string;
    try {
      clean = sanitizeSvg(svg.toString('utf8'));
    } catch (e) {
      if (!(e instanceof SvgRejectedError)) throw e;
      outcome = `${e.statusCode} ${e.message}`;
      return;
    }
    try {
      rasterizeSvgTask({ svg: clean });
    } catch (e) {
      outcome = `rasterize: ${(e as Error).message}`;
    }
  });
  return { ms, outcome };
}

describe.skipIf(unitOnly)('sanitize + rasterize cost of every hostile shape (issue 32)', () => {
  for (const cls of ATTACK_CLASSES.filter((c) => c !== 'mixture')) {
    it(`${cls}: every variant at ~100 KB and ~1 MB is cheap or refused by the scan`, () => {
      const slow: string[] = [];
      for (const bytes of SIZES) {
        for (const [variant, svg] of variants(cls, bytes)) {
          const { ms, outcome } = costOf(svg);
          if (process.env.SVG_COST_VERBOSE) console.log(`${cls} / ${variant} / ${svg.length} B: ${Math.round(ms)} ms ${outcome.slice(0, 100)}`);
          if (ms > CPU_BOUND_MS) slow.push(`${variant} (${svg.length} B): ${Math.round(ms)} ms CPU, ${outcome.slice(0, 120)}`);
          // a refusal is a 4xx that says why, never a rasterizer failure
          expect(outcome.startsWith('rasterize:'), `${cls} / ${variant}: ${outcome}`).toBe(false);
        }
      }
      expect(slow, `${cls}: over ${CPU_BOUND_MS} ms of CPU`).toEqual([]);
    }, 120_000);
  }

  it('mixtures (seeded) are cheap or refused', () => {
    const slow: string[] = [];
    for (let seed = 1; seed <= 12; seed++) {
      for (const bytes of SIZES) {
        const h = hostileSvgOf('mixture', seed, bytes);
        const { ms, outcome } = costOf(h.svg);
        if (ms > CPU_BOUND_MS) slow.push(`${h.variant} (${h.svg.length} B): ${Math.round(ms)} ms, ${outcome.slice(0, 120)}`);
      }
    }
    expect(slow).toEqual([]);
  }, 120_000);
});

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const refusal = (svg: string) => {
  try {
    scanSvg(svg);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
};

describe.skipIf(unitOnly)('sanitize-cost budgets (fast-check)', () => {
  it('the parser gets no comment, processing instruction or CDATA, and the same text', () => {
    const piece = fc.oneof(
      fc.constant('<!-- c -->'),
      fc.constant('<?pi x?>'),
      fc.string({ maxLength: 8 }).map((t) => `<![CDATA[${t.replace(/]]>/g, '')}]]>`),
      fc.constantFrom('a', ' ', '\n', '&amp;', 'b<!---->c'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const body = parts.join('');
        const { text } = scanSvg(`<?xml version="1.0"?><!-- head --><svg ${NS}><text>${body}</text><style>${body}</style></svg>`);
        expect(text).not.toContain('<!--');
        expect(text).not.toContain('<![CDATA[');
        expect(text).not.toContain('<?');
        const out = sanitizeSvg(text);
        const expected = parts
          .map((p) => (p.startsWith('<![CDATA[') ? p.slice(9, -3) : p.startsWith('<!--') || p.startsWith('<?') ? '' : p.replace('<!---->', '').replace('&amp;', '&')))
          .join('');
        const got = /<text>([\s\S]*)<\/text>/.exec(out)?.[1] ?? '';
        expect(got.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>')).toBe(expected.trim() === '' && expected.length > 0 ? got : expected);
      }),
      { numRuns: 60 },
    );
  });

  it('CSS filter functions are refused in style sheets, style attributes and the filter attribute; url(#id) passes', () => {
    const fn = fc.constantFrom('blur(9px)', 'drop-shadow(0 0 9px red)', 'BLUR(1e9px)', 'grayscale(1)', 'url(#f) blur(2px)');
    const where = fc.constantFrom('sheet', 'attr', 'presentation', 'vendor');
    fc.assert(
      fc.property(fn, where, (f, w) => {
        const svg =
          w === 'sheet'
            ? `<svg ${NS}><style>g{fill:red}*{filter:${f}}</style></svg>`
            : w === 'vendor'
              ? `<svg ${NS}><style>*{-webkit-filter: ${f}}</style></svg>`
              : w === 'attr'
                ? `<svg ${NS}><rect style="fill:red;filter:${f}"/></svg>`
                : `<svg ${NS}><rect filter="${f}"/></svg>`;
        expect(refusal(svg)).toMatch(/CSS filter functions/);
      }),
    );
    expect(refusal(`<svg ${NS}><filter id="f"/><style>.filter:hover{fill:red}*{filter:url(#f)}</style><rect style="filter:url(#f)" filter="url(#f)"/></svg>`)).toBeNull();
  });

  it('viewBox aspect ratios beyond 1:100 and sizes that are not finite and positive are refused', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e6, noNaN: true }), fc.double({ min: 1e-6, max: 1e6, noNaN: true }), (w, h) => {
        const r = refusal(`<svg ${NS} width="100" height="100" viewBox="0 0 ${w} ${h}"/>`);
        if (Math.max(w / h, h / w) > SVG_BUDGETS.viewBoxAspect) expect(r).toMatch(/viewBox is .* times longer/);
        else expect(r ?? '').not.toMatch(/viewBox/);
      }),
    );
    for (const vb of ['0 0 0 1', '0 0 -1 1', '0 0 1e999 1', '0 0 1 0']) expect(refusal(`<svg ${NS} viewBox="${vb}"/>`)).toMatch(/viewBox has no size/);
  });

  it('text, style sheets, style attributes, text elements and image pixels have budgets', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }), (kind, over) => {
        const big = (n: number) => 'x'.repeat(n * over);
        const svg = [
          `<svg ${NS}><desc>${big(SVG_BUDGETS.characterData + 1)}</desc></svg>`,
          `<svg ${NS}><style>${'a{}'.repeat((SVG_BUDGETS.cssRules + 1) * over)}</style></svg>`,
          `<svg ${NS}><rect style="${'fill:red;'.repeat(Math.ceil((SVG_BUDGETS.styleAttributeChars + 1) / 9) * over)}"/></svg>`,
          `<svg ${NS}><text>${'<tspan>W</tspan>'.repeat((SVG_BUDGETS.textElements + 1) * over)}</text></svg>`,
        ][kind - 1];
        expect(refusal(svg)).toMatch(/more than|longer than/);
      }),
      { numRuns: 12 },
    );
    // whitespace between elements is not text: 1 MB of it passes, collapsed
    const blank = scanSvg(`<svg ${NS}><g>${' \n\t'.repeat(300_000)}</g></svg>`);
    expect(blank.text.length).toBeLessThan(100);
  });
});

describe.skipIf(unitOnly)('painted-area budget (issue 32)', () => {
  it('stroked canvas-size circles just under the budget are drawn at 1200 px in under 2 s of CPU; one more circle set is refused', () => {
    const circle = '<circle cx="600" cy="600" r="600" stroke="red" stroke-width="99" fill="none"/>';
    const perCircle = 1200 * 1200; // the box with its stroke, clipped to the canvas
    const n = Math.floor(SVG_BUDGETS.paintedPixels / perCircle);
    const svg = `<svg ${NS} width="1200" height="1200">${circle.repeat(n)}</svg>`;
    const ms = cpuMs(() => rasterizeSvgTask({ svg: sanitizeSvg(svg) }));
    expect(ms).toBeLessThan(2000);
    expect(refusal(`<svg ${NS} width="1200" height="1200">${circle.repeat(n + 1)}</svg>`)).toMatch(/paint about/);
  }, 60_000);
});
