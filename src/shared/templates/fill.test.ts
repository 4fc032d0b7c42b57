import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { Resvg } from '@resvg/resvg-js';
import jsQR from 'jsqr';
import { allFontPaths } from '#server/infra/fonts';
import { BUILTIN_TEMPLATES, CARD_HEIGHT, CARD_WIDTH } from './builtin';
import { fillTemplate, fillTemplateDetailed } from './fill';
import { SAMPLE_CARD, displayUrl, initialsOf, type CardData } from './fields';
import { fitText, wrapLines } from './fit';
import { measureText } from './measure';
import { escapeXml } from './xml';

const window = new JSDOM('').window;
function parse(svg: string) {
  const doc = new window.DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(doc.getElementsByTagName('parsererror').length, svg.slice(0, 300)).toBe(0);
  return doc;
}

/** A text element's words, with wrapped lines (tspans) joined by a space. */
function textOf(e: Element): string {
  const spans = Array.from(e.getElementsByTagName('tspan'));
  return spans.length ? spans.map((s) => s.textContent ?? '').join(' ') : e.textContent ?? '';
}

const fonts = allFontPaths();
function render(svg: string, width = CARD_WIDTH) {
  return new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: 'Inter' }, fitTo: { mode: 'width', value: width } });
}

/** Text elements' bounding boxes, measured by resvg on the rendered card. */
function textBoxes(svg: string) {
  const doc = parse(svg);
  const out: Array<{ text: string; x: number; y: number; width: number; height: number }> = [];
  for (const t of Array.from(doc.getElementsByTagName('text'))) {
    const single = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">${new window.XMLSerializer().serializeToString(t)}</svg>`;
    const bbox = render(single).getBBox();
    if (bbox) out.push({ text: t.textContent ?? '', x: bbox.x, y: bbox.y, width: bbox.width, height: bbox.height });
  }
  return out;
}

describe('escaping: user text is always text', () => {
  const nasty = [
    '<script>alert(1)</script>',
    '"/><image href="http://evil.example/x.png"/><text>',
    "Tom & Jerry's <b>Co</b>",
    ']]><!-- x --><?pi?>',
    '{{fullName}} {{email}}',
    'A\u0000B\u0007C\u001b',
    '\ud800 lone surrogate',
  ];
  for (const t of BUILTIN_TEMPLATES) {
    for (const side of ['front', 'back'] as const) {
      it(`${t.name} ${side}: hostile values stay text and the SVG stays valid`, () => {
        const data: CardData = {};
        for (const [i, k] of (['fullName', 'jobTitle', 'companyName', 'email', 'phoneNumber', 'address'] as const).entries()) data[k] = nasty[i % nasty.length];
        const svg = fillTemplate(t[side], data, { qrUrl: 'https://example.com/p/abc"><script>' });
        const doc = parse(svg);
        expect(doc.getElementsByTagName('script')).toHaveLength(0);
        expect(Array.from(doc.getElementsByTagName('image')).filter((i) => (i.getAttribute('href') ?? '').includes('evil'))).toHaveLength(0);
        expect(svg).not.toMatch(/<script/i);
        // the values are shown (escaped), not dropped
        const allText = Array.from(doc.getElementsByTagName('text')).map((e) => e.textContent).join(' ');
        if (side === 'front') expect(allText.toLowerCase()).toContain('<script>alert(1)</script>');
        expect(allText).not.toContain('\u0000');
      });
    }
  }

  it('any string survives as text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), (name, company) => {
        const svg = fillTemplate(BUILTIN_TEMPLATES[2].front, { fullName: name, companyName: company });
        const doc = parse(svg);
        expect(doc.getElementsByTagName('script')).toHaveLength(0);
        expect(doc.documentElement.localName).toBe('svg');
      }),
      { numRuns: 150 },
    );
  });

  it('escapeXml escapes markup characters and drops XML-illegal ones', () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0001`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
});

describe('fields', () => {
  it('fills every built-in side with the sample person', () => {
    for (const t of BUILTIN_TEMPLATES) {
      const front = fillTemplate(t.front, SAMPLE_CARD, { qrUrl: 'https://example.com/p/abc' });
      const back = fillTemplate(t.back, SAMPLE_CARD, { qrUrl: 'https://example.com/p/abc' });
      const frontText = Array.from(parse(front).getElementsByTagName('text')).map(textOf).join('|').toLowerCase();
      const backText = Array.from(parse(back).getElementsByTagName('text')).map(textOf).join('|').toLowerCase();
      expect(frontText).toContain('alexandra reed');
      expect(frontText).toContain('creative director');
      expect(frontText).toContain('northwind studio');
      expect(backText).toContain('alex@northwind.studio');
      expect(backText).toContain('+1 (212) 555-0182');
      expect(backText).toContain('350 fifth avenue');
      expect(backText).toContain('northwind.studio');
      // no template markers or placeholders left
      for (const s of [front, back]) {
        expect(s).not.toMatch(/data-field|data-slot|data-stack|\{\{/);
      }
    }
  });

  it('drops empty fields and closes the gaps in contact stacks', () => {
    const simple = BUILTIN_TEMPLATES.find((t) => t.folder === 'simple')!;
    const svg = fillTemplate(simple.back, { fullName: 'Jo Park', email: 'jo@example.com', address: '1 Main St' });
    const doc = parse(svg);
    const texts = Array.from(doc.getElementsByTagName('text')).map((e) => ({ t: e.textContent, y: Number(e.getAttribute('y')) }));
    const email = texts.find((x) => x.t === 'jo@example.com')!;
    const addr = texts.find((x) => x.t === '1 Main St')!;
    expect(email).toBeTruthy();
    expect(addr).toBeTruthy();
    // consecutive lines, not the gaps of the missing phone/website/linkedin
    expect(addr.y - email.y).toBe(50);
    // labels only for the present lines
    expect(texts.filter((x) => x.t === 'T' || x.t === 'W')).toHaveLength(0);
  });

  it('keeps the QR placeholder without a URL and draws a decodable code with one', () => {
    for (const t of BUILTIN_TEMPLATES) {
      const none = fillTemplate(t.back, SAMPLE_CARD, {});
      expect(none).toContain('>QR</text>');
      const url = `https://cards.example.com/p/x${t.id}k2m9`;
      const svg = fillTemplate(t.back, SAMPLE_CARD, { qrUrl: url });
      expect(svg).not.toContain('>QR</text>');
      const img = render(svg, 1050).render();
      const code = jsQR(new Uint8ClampedArray(img.pixels.buffer, img.pixels.byteOffset, img.pixels.byteLength), img.width, img.height, { inversionAttempts: 'attemptBoth' });
      expect(code?.data, `${t.name} back QR`).toBe(url);
    }
  });

  it('draws the green QR border (width 2) on Classic and Modern only', () => {
    for (const t of BUILTIN_TEMPLATES) {
      const svg = fillTemplate(t.back, SAMPLE_CARD, { qrUrl: 'https://example.com/p/abc' });
      const bordered = /stroke="#22c55e" stroke-width="2"/.test(svg);
      expect(bordered, t.name).toBe(t.folder === 'classic' || t.folder === 'modern');
    }
  });

  it('embeds a logo in the logo slot, or shows the monogram fallback', () => {
    for (const t of BUILTIN_TEMPLATES) {
      const withLogo = fillTemplate(t.front, SAMPLE_CARD, { logoHref: 'data:image/png;base64,iVBORw0KGgo=' });
      expect(withLogo).toMatch(/<image [^>]*href="data:image\/png;base64,iVBORw0KGgo="/);
      const without = fillTemplate(t.front, SAMPLE_CARD, {});
      expect(without).not.toContain('<image');
      expect(without).toContain('>AR</text>');
    }
  });

  it('helpers: display URLs and initials', () => {
    expect(displayUrl('https://www.example.com/')).toBe('example.com');
    expect(displayUrl('http://x.io/a/b?utm=1#h')).toBe('x.io/a/b');
    expect(initialsOf('  ada   king lovelace ')).toBe('AL');
    expect(initialsOf('Zoë')).toBe('Z');
    expect(initialsOf('')).toBe('');
  });
});

describe('fitting long text', () => {
  const long: CardData = {
    fullName: 'Maximiliana Alexandrovna Konstantinopolskaya-Wetherington of Westminster',
    jobTitle: 'Senior Vice President of International Strategic Partnerships and Alliances',
    companyName: 'International Business Machines and Consulting Group of North America',
    email: 'maximiliana.konstantinopolskaya@very-long-company-domain-name.example.com',
    phoneNumber: '+1 (212) 555-0182 ext. 4451',
    address: '1234 Avenue of the Americas, 45th Floor, Suite 4500, New York, NY 10036-2701, United States of America',
    website: 'https://www.international-business-machines-consulting-group.example.com/about-us',
    linkedinUrl: 'https://www.linkedin.com/in/maximiliana-alexandrovna-konstantinopolskaya-wetherington',
  };

  for (const t of BUILTIN_TEMPLATES) {
    for (const side of ['front', 'back'] as const) {
      it(`${t.name} ${side}: every line stays on the card (measured by resvg)`, () => {
        const svg = fillTemplate(t[side], long, { qrUrl: 'https://example.com/p/abc' });
        const boxes = textBoxes(svg);
        expect(boxes.length).toBeGreaterThan(2);
        for (const b of boxes) {
          expect(b.x, `"${b.text}" starts off the card`).toBeGreaterThanOrEqual(20);
          expect(b.x + b.width, `"${b.text}" runs off the right edge`).toBeLessThanOrEqual(CARD_WIDTH - 20);
          expect(b.y, `"${b.text}" runs off the top`).toBeGreaterThanOrEqual(20);
          expect(b.y + b.height, `"${b.text}" runs off the bottom`).toBeLessThanOrEqual(CARD_HEIGHT - 20);
        }
      });
    }
  }

  it('no two lines of text overlap, however long the values', () => {
    for (const t of BUILTIN_TEMPLATES) {
      for (const side of ['front', 'back'] as const) {
        const boxes = textBoxes(fillTemplate(t[side], long, { qrUrl: 'https://example.com/p/abc' }));
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i];
            const b = boxes[j];
            const overlap = a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;
            expect(overlap, `${t.name} ${side}: "${a.text}" overlaps "${b.text}"`).toBe(false);
          }
        }
      }
    }
  });

  it('back contact lines never overlap the QR code', () => {
    for (const t of BUILTIN_TEMPLATES) {
      const svg = fillTemplate(t.back, long, { qrUrl: 'https://example.com/p/abc' });
      const qrX = /<g class="qr-code">.*?translate\((\d+(?:\.\d+)?) (\d+(?:\.\d+)?)\)/.exec(svg);
      expect(qrX).toBeTruthy();
      const x = Number(qrX![1]);
      const y = Number(qrX![2]);
      const size = Number(/data-size="(\d+)"/.exec(t.back)![1]);
      for (const b of textBoxes(svg)) {
        const overlapX = b.x < x + size && b.x + b.width > x;
        const overlapY = b.y < y + size && b.y + b.height > y;
        expect(overlapX && overlapY, `${t.name}: "${b.text}" overlaps the QR code`).toBe(false);
      }
    }
  });

  it('wraps a long address onto two lines and shrinks a long name', () => {
    const simple = BUILTIN_TEMPLATES.find((t) => t.folder === 'simple')!;
    const back = parse(fillTemplate(simple.back, long));
    const addr = Array.from(back.getElementsByTagName('text')).find((e) => (e.textContent ?? '').includes('Avenue'))!;
    expect(addr.getElementsByTagName('tspan').length).toBe(2);
    const front = fillTemplateDetailed(simple.front, { fullName: 'Wolfeschlegelsteinhausenbergerdorff Hubert Blaine' });
    const name = Array.from(parse(front.svg).getElementsByTagName('text')).find((e) => (e.textContent ?? '').includes('Hubert'))!;
    expect(Number(name.getAttribute('font-size'))).toBeLessThanOrEqual(54);
  });

  it('reports a field it had to cut', () => {
    const r = fillTemplateDetailed(BUILTIN_TEMPLATES[0].front, { fullName: 'W'.repeat(100) });
    expect(r.truncated).toContain('fullName');
    expect(r.svg).toContain('\u2026');
  });

  it('fitText: the result always fits its box (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 120 }),
        fc.integer({ min: 80, max: 900 }),
        fc.constantFrom('shrink', 'wrap'),
        fc.constantFrom('Inter', 'Playfair Display', 'Montserrat', 'JetBrains Mono'),
        (text, maxWidth, mode, fontFamily) => {
          const style = { fontFamily, fontSize: 40, fontWeight: 400, letterSpacing: 1 };
          const r = fitText(text, style, { maxWidth, mode: mode as 'shrink' | 'wrap', maxLines: 2, minSize: 12 });
          expect(r.lines.length).toBeLessThanOrEqual(mode === 'wrap' ? 2 : 1);
          for (const line of r.lines) expect(measureText(line, { ...style, fontSize: r.fontSize, letterSpacing: r.letterSpacing })).toBeLessThanOrEqual(maxWidth);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('wrapLines breaks an over-long word at a natural point', () => {
    const lines = wrapLines('someone.with.a.long.address@example-company.com', { fontSize: 30 }, 300);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe('someone.with.a.long.address@example-company.com');
  });
});
