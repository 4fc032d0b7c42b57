import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { BUNDLED_FONTS, fontFaceCss } from '#shared/fonts';
import { measureText } from '#shared/templates/measure';
import { allFontPaths, familiesIn, fontBytes, fontFilesFor, fontRegistry, weightsIn } from '#server/infra/fonts';
import { computeFontMetricsSource } from './font-metrics-source';

describe('bundled fonts', () => {
  it('every listed face is a TrueType file on disk', () => {
    const reg = fontRegistry();
    expect(reg.size).toBe(BUNDLED_FONTS.reduce((n, f) => n + f.faces.length, 0));
    for (const face of reg.values()) {
      const head = fs.readFileSync(face.path).subarray(0, 4);
      expect(head.readUInt32BE(0), face.file).toBe(0x00010000);
    }
    expect(fontBytes('Inter_400Regular.ttf')?.length).toBeGreaterThan(100_000);
    expect(fontBytes('../../package.json')).toBeNull();
  });

  it('the committed width table matches the installed fonts (run scripts/gen-font-metrics.ts when not)', () => {
    const committed = fs.readFileSync(path.join(__dirname, '../../../shared/templates/font-metrics.ts'), 'utf8');
    expect(committed).toBe(computeFontMetricsSource());
  });

  it('measured widths agree with resvg’s own layout within 3%', () => {
    const samples: Array<[string, string, number, number]> = [
      ['Alexandra Montgomery-Smith', 'Playfair Display', 600, 60],
      ['CHIEF EXECUTIVE OFFICER', 'Inter', 300, 24],
      ['alexandra@example-company.com', 'Montserrat', 500, 30],
      ['123 Fifth Avenue, Suite 400, New York', 'JetBrains Mono', 400, 20],
    ];
    for (const [text, family, weight, size] of samples) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="200"><text x="0" y="100" font-family="${family}" font-weight="${weight}" font-size="${size}">${text}</text></svg>`;
      const bbox = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: allFontPaths(), defaultFontFamily: 'Inter' } }).getBBox()!;
      const ours = measureText(text, { fontFamily: family, fontWeight: weight, fontSize: size });
      expect(Math.abs(ours - bbox.width) / bbox.width, `${family} ${weight}`).toBeLessThan(0.03);
    }
  });

  it('a render loads only the families and weights the SVG uses', () => {
    const svg = '<svg><text font-family="Playfair Display, serif" font-weight="600">a</text><text font-family="JetBrains Mono" font-style="italic">b</text></svg>';
    expect(familiesIn(svg)).toEqual(['Inter', 'JetBrains Mono', 'Playfair Display']);
    expect(weightsIn(svg)).toEqual([400, 600]);
    const files = fontFilesFor(svg).map((p) => path.basename(p));
    expect(files).toContain('PlayfairDisplay_600SemiBold.ttf');
    expect(files).toContain('PlayfairDisplay_400Regular_Italic.ttf');
    expect(files).toContain('Inter_400Regular.ttf');
    expect(files).not.toContain('Montserrat_400Regular.ttf');
  });

  it('@font-face rules point at /fonts/{file}', () => {
    const css = fontFaceCss('/fonts/');
    expect(css).toContain("font-family:'Playfair Display';font-style:italic;font-weight:400");
    expect(css).toContain("url('/fonts/Montserrat_700Bold.ttf') format('truetype')");
  });
});
