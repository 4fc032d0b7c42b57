import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';

/**
 * Fonts for the scripts Inter has no glyphs for: Chinese, Japanese and Korean (issue 36, decision
 * 36-03). Noto Sans SC, JP and KR come from @fontsource packages, each split into ~100 small files
 * by unicode range (`unicode.json` in the package says which file holds which code points), one set
 * per weight. Nothing here is read until a text holds a CJK character: a Latin name costs one regex
 * test. Text is split into runs, each drawn with the first font of the chain that has its characters:
 * Inter (or the text's own bundled family), then the CJK face the word's script prefers (Hangul:
 * KR; kana: JP; Han only: SC), then the other two.
 *
 * The files are WOFF 1.0; pdfkit reads them through fontkit, but resvg's font database reads only
 * TTF/OTF files, so a face is unpacked once (zlib per table, WOFF 1.0 section 5) to a plain TTF in a
 * cache folder under the system's temp directory.
 */

export interface CjkFamily {
  id: 'sc' | 'jp' | 'kr';
  family: string;
  pkg: string;
  /** file name prefix inside the package's files/ folder */
  slug: string;
}

export const CJK_FAMILIES: CjkFamily[] = [
  { id: 'sc', family: 'Noto Sans SC', pkg: '@fontsource/noto-sans-sc', slug: 'noto-sans-sc' },
  { id: 'jp', family: 'Noto Sans JP', pkg: '@fontsource/noto-sans-jp', slug: 'noto-sans-jp' },
  { id: 'kr', family: 'Noto Sans KR', pkg: '@fontsource/noto-sans-kr', slug: 'noto-sans-kr' },
];

/**
 * Code points Inter lacks that the CJK faces have: Hangul Jamo, CJK radicals and symbols and
 * punctuation, kana, Bopomofo, Hangul compatibility Jamo, CJK ideographs (with extension A), Hangul
 * syllables, compatibility ideographs, vertical and small forms, full- and half-width forms, and the
 * supplementary ideograph planes.
 */
const CJK_CHAR = /[\u1100-\u11ff\u2e80-\u2fdf\u2ff0-\u31ff\u3200-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef]|[\u{20000}-\u{3134f}]/u;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]/u;
const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/u;

/** True when a text holds a character only the CJK faces have (the one test a Latin text pays). */
export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/**
 * The CJK faces in the order a word prefers them: Hangul -> KR, kana -> JP; a word of Han only takes
 * JP when its text has kana elsewhere ("山田 たろう"), else SC. (Unified Han code points look slightly
 * different in each face; the name's language is not stored, so the script around it decides.)
 */
export function cjkOrder(word: string, text = word): CjkFamily[] {
  const first = HANGUL.test(word) ? 'kr' : KANA.test(word) || KANA.test(text) ? 'jp' : 'sc';
  return [...CJK_FAMILIES.filter((f) => f.id === first), ...CJK_FAMILIES.filter((f) => f.id !== first)];
}

const require = createRequire(import.meta.url);

interface Subset {
  /** the file name part: "116" for the numbered subset "[116]", "latin" for a named one */
  part: string;
  ranges: Array<[number, number]>;
}

const subsets = new Map<string, { dir: string; subsets: Subset[] }>();

function parseRanges(css: string): Array<[number, number]> {
  return css.split(',').map((r) => {
    const [a, b] = r.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(a, 16), parseInt(b ?? a, 16)];
  });
}

/** A package's unicode-range table (read on first use). */
function subsetTable(f: CjkFamily): { dir: string; subsets: Subset[] } {
  let t = subsets.get(f.id);
  if (!t) {
    const json = require.resolve(`${f.pkg}/unicode.json`);
    const raw = JSON.parse(fs.readFileSync(json, 'utf8')) as Record<string, string>;
    t = { dir: path.join(path.dirname(json), 'files'), subsets: Object.entries(raw).map(([k, v]) => ({ part: k.replace(/^\[(\d+)\]$/, '$1'), ranges: parseRanges(v) })) };
    subsets.set(f.id, t);
  }
  return t;
}

/** One file of one CJK face: the subset that holds a code point, at one weight. */
export interface CjkFace {
  /** unique per file: "noto-sans-sc-116-700" (also the name a PDF registers it under) */
  key: string;
  family: string;
  weight: number;
  /** the package's WOFF file */
  woff: string;
}

function nearestWeight(weight: number): number {
  return Math.min(900, Math.max(100, Math.round(weight / 100) * 100));
}

/** The file of the first face in `order` that covers the code point, or null when none does. */
export function cjkFaceFor(cp: number, order: CjkFamily[], weight: number): CjkFace | null {
  const w = nearestWeight(weight);
  for (const f of order) {
    const t = subsetTable(f);
    const s = t.subsets.find((x) => x.ranges.some(([a, b]) => cp >= a && cp <= b));
    if (s) return { key: `${f.slug}-${s.part}-${w}`, family: f.family, weight: w, woff: path.join(t.dir, `${f.slug}-${s.part}-${w}-normal.woff`) };
  }
  return null;
}

export interface TextRun {
  text: string;
  /** null: the text's own font (Inter or the template's family) */
  face: CjkFace | null;
}

/**
 * Splits a text into runs of one font each: characters outside the CJK blocks (and spaces between
 * CJK characters) stay with the base font; each CJK character goes to the file that has it.
 */
export function scriptRuns(text: string, weight = 400): TextRun[] {
  if (!hasCjk(text)) return [{ text, face: null }];
  const runs: TextRun[] = [];
  for (const word of text.split(/(\s+)/)) {
    const order = hasCjk(word) ? cjkOrder(word, text) : [];
    for (const ch of word) {
      const face = order.length && CJK_CHAR.test(ch) ? cjkFaceFor(ch.codePointAt(0)!, order, weight) : null;
      const last = runs[runs.length - 1];
      if (last && (last.face?.key ?? null) === (face?.key ?? null)) last.text += ch;
      else runs.push({ text: ch, face });
    }
  }
  return runs;
}

/** Every CJK file a text needs at a weight (distinct, in the order first needed). */
export function cjkFacesIn(text: string, weight: number): CjkFace[] {
  const seen = new Map<string, CjkFace>();
  for (const r of scriptRuns(text, weight)) if (r.face && !seen.has(r.face.key)) seen.set(r.face.key, r.face);
  return [...seen.values()];
}

/** WOFF 1.0 -> the sfnt (TTF/OTF) it wraps: each table inflated when compressed, 4-byte aligned. */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error('Not a WOFF 1.0 file');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables: Array<{ tag: number; checksum: number; data: Buffer }> = [];
  for (let i = 0; i < numTables; i++) {
    const e = 44 + i * 20;
    const offset = woff.readUInt32BE(e + 4);
    const compLength = woff.readUInt32BE(e + 8);
    const origLength = woff.readUInt32BE(e + 12);
    const stored = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? zlib.inflateSync(stored) : Buffer.from(stored);
    if (data.length !== origLength) throw new Error('WOFF table length mismatch');
    tables.push({ tag: woff.readUInt32BE(e), checksum: woff.readUInt32BE(e + 16), data });
  }
  tables.sort((a, b) => a.tag - b.tag);
  const pow = 2 ** Math.floor(Math.log2(numTables));
  const headerLength = 12 + numTables * 16;
  const total = tables.reduce((n, t) => n + ((t.data.length + 3) & ~3), headerLength);
  const out = Buffer.alloc(total);
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(pow * 16, 6);
  out.writeUInt16BE(Math.log2(pow), 8);
  out.writeUInt16BE(numTables * 16 - pow * 16, 10);
  let offset = headerLength;
  tables.forEach((t, i) => {
    const r = 12 + i * 16;
    out.writeUInt32BE(t.tag, r);
    out.writeUInt32BE(t.checksum, r + 4);
    out.writeUInt32BE(offset, r + 8);
    out.writeUInt32BE(t.data.length, r + 12);
    t.data.copy(out, offset);
    offset += (t.data.length + 3) & ~3;
  });
  return out;
}

const sfntCache = new Map<string, Buffer>();
const SFNT_CACHE_MAX = 48;

/** The face's TTF bytes (unpacked from its WOFF; the most recent few kept in memory). */
export function cjkFaceBytes(face: CjkFace): Buffer {
  let b = sfntCache.get(face.key);
  if (b) {
    sfntCache.delete(face.key);
  } else {
    b = woffToSfnt(fs.readFileSync(face.woff));
    if (sfntCache.size >= SFNT_CACHE_MAX) sfntCache.delete(sfntCache.keys().next().value!);
  }
  sfntCache.set(face.key, b);
  return b;
}

let cacheDir: string | null = null;

/** A TTF file of the face on disk (what resvg's fontFiles needs), written once per machine. */
export function cjkFacePath(face: CjkFace): string {
  cacheDir ??= path.join(os.tmpdir(), `metal-cards-fonts-${typeof process.getuid === 'function' ? process.getuid() : 'u'}`);
  // the WOFF's size in the name: a new package version with other outlines gets a new file
  const file = path.join(cacheDir, `${face.key}-${fs.statSync(face.woff).size}.ttf`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    // written under a unique name, then renamed: another worker may write the same file at once
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(tmp, cjkFaceBytes(face));
    fs.renameSync(tmp, file);
  }
  return file;
}
