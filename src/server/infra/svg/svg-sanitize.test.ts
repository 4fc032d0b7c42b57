import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { sanitizeSvg, SvgRejectedError, cleanCss } from './svg-sanitize';

const wrap = (inner: string, rootAttrs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1050 600"${rootAttrs}>${inner}</svg>`;

function rejects(input: string, status: number, message: RegExp) {
  let err: unknown;
  try {
    sanitizeSvg(input);
  } catch (e) {
    err = e;
  }
  expect(err, `expected a rejection for ${input.slice(0, 60)}`).toBeInstanceOf(SvgRejectedError);
  expect((err as SvgRejectedError).statusCode).toBe(status);
  expect((err as Error).message).toMatch(message);
}

/** Parse the output as a browser would (XML) to be sure it is still a valid SVG document. */
function parse(svg: string) {
  const { window } = new JSDOM('');
  const doc = new window.DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(doc.getElementsByTagName('parsererror').length).toBe(0);
  expect(doc.documentElement.localName).toBe('svg');
  return doc;
}

describe('sanitizeSvg: keeps a real design intact', () => {
  it('keeps case-sensitive names, gradients, filters, local references, text and escaping', () => {
    const input = `<?xml version="1.0" encoding="UTF-8"?>\n${wrap(`
      <defs>
        <linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#888"/></linearGradient>
        <filter id="f"><feColorMatrix type="matrix" values="1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 0 0 0 1 0"/></filter>
        <clipPath id="c"><rect width="10" height="10"/></clipPath>
      </defs>
      <style>.t{font-family:'Inter';fill:url(#g)}</style>
      <rect width="1050" height="600" fill="#000"/>
      <rect width="5" height="5" fill="url(#g)" filter="url(#f)" clip-path="url(#c)"/>
      <use xlink:href="#c"/>
      <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
      <text x="10" y="20" class="t" font-size="40">A &amp; B &lt;C&gt;</text>`, ' width="1050" height="600"')}`;
    const out = sanitizeSvg(input);
    const doc = parse(out);
    const root = doc.documentElement;
    expect(root.getAttribute('viewBox')).toBe('0 0 1050 600');
    expect(doc.getElementsByTagName('linearGradient')).toHaveLength(1);
    expect(doc.getElementsByTagName('feColorMatrix')[0].getAttribute('values')).toContain('1 0 0');
    expect(doc.getElementsByTagName('clipPath')).toHaveLength(1);
    expect(out).toContain('fill="url(#g)"');
    expect(out).toContain('filter="url(#f)"');
    expect(out).toContain('fill:url(#g)');
    expect(doc.getElementsByTagName('use')[0].getAttributeNS('http://www.w3.org/1999/xlink', 'href')).toBe('#c');
    expect(doc.getElementsByTagName('image')[0].getAttribute('href')).toMatch(/^data:image\/png;base64,/);
    expect(doc.getElementsByTagName('text')[0].textContent).toBe('A & B <C>');
  });
});

describe('sanitizeSvg: removes active and external content', () => {
  const cases: Array<[string, string, (out: string) => void]> = [
    ['script element', '<script>alert(1)</script><script href="http://x/y.js"/>', (o) => expect(o).not.toMatch(/script/i)],
    ['event handlers', '<rect onclick="alert(1)" onload="x()" OnMouseOver="y()" width="1" height="1"/>', (o) => expect(o).not.toMatch(/\bon\w+=/i)],
    ['root handler', '', (o) => expect(o).not.toMatch(/onload/i)],
    [
      'foreignObject',
      '<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></div></foreignObject>',
      (o) => {
        expect(o).not.toMatch(/foreignObject/i);
        expect(o).not.toMatch(/onerror|<img/i);
      },
    ],
    ['javascript: link', '<a href="javascript:alert(1)"><text>x</text></a><a xlink:href=" JaVaScRiPt:alert(2)"><text>y</text></a>', (o) => {
      expect(o).not.toMatch(/javascript/i);
      expect(o).toContain('>x</text>');
    }],
    ['external image href', '<image href="http://evil.example/a.png" width="1" height="1"/><image xlink:href="//evil.example/b.png"/>', (o) => expect(o).not.toMatch(/evil/)],
    ['external use', '<use href="http://evil.example/sprite.svg#x"/><use xlink:href="sprite.svg#y"/>', (o) => expect(o).not.toMatch(/sprite|evil/)],
    ['svg data: in href', '<image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" width="1" height="1"/>', (o) => expect(o).not.toMatch(/data:image\/svg/)],
    ['url() in presentation attributes', '<rect fill="url(http://evil.example/#p)" filter="url(&quot;https://evil.example/f&quot;)" width="1" height="1"/>', (o) => expect(o).not.toMatch(/evil/)],
    ['url() and @import in <style>', '<style>@import url(http://evil.example/a.css);@import "x.css"; .a{background:url(https://evil.example/b.png)}</style>', (o) => {
      expect(o).not.toMatch(/evil|@import|x\.css/);
    }],
    ['url() in style attribute', '<rect style="fill:url(\'https://evil.example/x\');stroke:red" width="1" height="1"/>', (o) => {
      expect(o).not.toMatch(/evil/);
      expect(o).toContain('stroke:red');
    }],
    ['CSS escapes hiding url()', '<style>.a{background:u\\72l(http://evil.example/c.png)}</style>', (o) => expect(o).not.toMatch(/url\(http/)],
    ['animation rewriting href', '<a><animate attributeName="href" to="javascript:alert(1)"/><set attributeName="onmouseover" to="alert(1)"/><text>t</text></a>', (o) => {
      expect(o).not.toMatch(/animate|<set|alert/);
    }],
    ['iframe/embed/object', '<iframe xmlns="http://www.w3.org/1999/xhtml" src="http://evil.example"/><embed src="http://evil.example"/>', (o) => expect(o).not.toMatch(/iframe|embed|evil/)],
  ];
  for (const [name, inner, check] of cases) {
    it(name, () => {
      const out = sanitizeSvg(wrap(inner, name === 'root handler' ? ' onload="alert(1)"' : ''));
      parse(out);
      check(out);
    });
  }

  it('processing instructions such as xml-stylesheet are dropped', () => {
    const out = sanitizeSvg(`<?xml-stylesheet href="http://evil.example/s.css"?>${wrap('<rect width="1" height="1"/>')}`);
    expect(out).not.toMatch(/evil|stylesheet/);
  });
});

describe('sanitizeSvg: refuses what is not a safe SVG', () => {
  it('refuses DOCTYPE / entities (XXE and billion laughs)', () => {
    rejects(
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>`,
      400,
      /DOCTYPE|entity/i,
    );
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&lol2;</text></svg>`;
    rejects(lol, 400, /DOCTYPE|entity/i);
  });
  it('refuses non-SVG and malformed input', () => {
    rejects('<html><body>hi</body></html>', 400, /Please upload an SVG/);
    rejects('\x89PNG\r\n\x1a\n binary', 400, /could not be parsed/);
    rejects('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>', 400, /could not be parsed/);
    rejects('<svg viewBox="0 0 1 1"/>', 400, /xmlns/);
    rejects('   ', 400, /empty/);
  });
  it('refuses files over the limit with 413', () => {
    rejects(wrap(`<desc>${'x'.repeat(1024 * 1024)}</desc>`), 413, /too large/);
    expect(() => sanitizeSvg(wrap('<rect/>'), { maxBytes: 10 })).toThrow(SvgRejectedError);
  });
});

describe('cleanCss', () => {
  it('keeps local url(#id) and removes everything else', () => {
    expect(cleanCss('fill:url(#a);stroke:url( "#b" )')).toBe('fill:url(#a);stroke:url(#b)');
    expect(cleanCss('background:url(http://x)')).toBe('background:none');
    expect(cleanCss('@import "a.css"; a{b:c}')).toBe(' a{b:c}');
    expect(cleanCss('width:expression(alert(1))')).not.toMatch(/expression\(/);
  });
});

describe('sanitizeSvg: budgets in output pixels (issue 32)', () => {
  it('every built-in (seeded) template passes at the largest render width', async () => {
    const { BUILTIN_TEMPLATES } = await import('#shared/templates/builtin');
    for (const t of BUILTIN_TEMPLATES) {
      for (const side of [t.front, t.back]) expect(() => sanitizeSvg(side, { output: { mode: 'width', pixels: 4200 } }), t.name).not.toThrow();
    }
  });
  it('the scaled-filter logo is refused with a 400 naming the pixels', () => {
    rejects(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><filter id="m"><feMorphology radius="20"/></filter><rect width="1" height="1" filter="url(#m)"/></svg>',
      400,
      /morphology radius is 24,000 px at print size/,
    );
  });
});
