import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { fontFilesFor } from './fonts';
import { cjkFaceBytes, cjkFaceFor, cjkOrder, hasCjk, scriptRuns } from './script-fonts';

/** Decision 36-03: the CJK fallback chain for PDFs and resvg. */
describe('script fonts', () => {
  it('a Latin, Greek or Cyrillic text is one run in its own font; CJK words go to the face their script prefers', () => {
    for (const t of ["Zoë O'Brien-Łukasz", 'Γιώργος', 'Анна', 'Nguyễn Thị']) {
      expect(hasCjk(t)).toBe(false);
      expect(scriptRuns(t)).toEqual([{ text: t, face: null }]);
    }
    const faces = (t: string) => scriptRuns(t).map((r) => [r.text, r.face?.family ?? null]);
    expect(faces('王小明')).toEqual([
      ['王', 'Noto Sans SC'],
      ['小明', 'Noto Sans SC'],
    ]);
    expect(faces('김민준')).toEqual([['김민준', 'Noto Sans KR']]);
    // kana anywhere in the text: its Han words take the Japanese face too
    expect(new Set(faces('山田 さくら').filter(([, f]) => f).map(([, f]) => f))).toEqual(new Set(['Noto Sans JP']));
    expect(faces('Dr. 김민준')[0]).toEqual(['Dr. ', null]);
    expect(cjkOrder('김').map((f) => f.id)).toEqual(['kr', 'sc', 'jp']);
    expect(scriptRuns('王', 700)[0].face?.weight).toBe(700);
  });

  it('unpacks a WOFF face to a TTF with the same tables', () => {
    const face = cjkFaceFor('王'.codePointAt(0)!, cjkOrder('王'), 400)!;
    const ttf = cjkFaceBytes(face);
    expect(ttf.readUInt32BE(0)).toBe(0x00010000);
    const tags = Array.from({ length: ttf.readUInt16BE(4) }, (_, i) => ttf.toString('latin1', 12 + i * 16, 16 + i * 16));
    expect(tags).toEqual(expect.arrayContaining(['cmap', 'glyf', 'head', 'hmtx', 'loca']));
  });

  it('resvg gets the CJK files only for an SVG that has CJK text, and draws glyphs, not .notdef boxes', () => {
    const svg = (text: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><text x="10" y="70" font-family="Inter" font-weight="700" font-size="60">${text}</text></svg>`;
    expect(fontFilesFor(svg('Grace Hopper')).every((f) => f.includes('expo-google-fonts'))).toBe(true);
    expect(fontFilesFor(svg('김민준')).some((f) => /noto-sans-kr-\d+-700-\d+\.ttf$/.test(f))).toBe(true);
    const pixels = (text: string) => new Resvg(svg(text), { font: { loadSystemFonts: false, fontFiles: fontFilesFor(svg(text)), defaultFontFamily: 'Inter' } }).render().pixels;
    const boxes = pixels('ཀཀཀ'); // Tibetan: no font of ours has it, three .notdef boxes
    for (const name of ['王小明', '김민준', 'さくら']) {
      const px = pixels(name);
      let differ = 0;
      for (let i = 3; i < px.length; i += 4) if (Math.abs(px[i] - boxes[i]) > 64) differ++;
      expect(differ, `${name} renders as boxes`).toBeGreaterThan(500);
    }
  });
});
