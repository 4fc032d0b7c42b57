/**
 * Download names for Content-Disposition (RFC 6266): the UTF-8 name in `filename*=UTF-8''...`
 * (RFC 8187) and an ASCII `filename=` fallback for old clients, transliterated rather than dropped
 * letter by letter (issue 36: "Łukasz" became "ukasz").
 */

/** Letters NFKD does not split into a base letter and a mark. */
const TRANSLIT: Record<string, string> = {
  Ł: 'L', ł: 'l', Ø: 'O', ø: 'o', Đ: 'D', đ: 'd', ß: 'ss', Æ: 'AE', æ: 'ae', Œ: 'OE', œ: 'oe', Þ: 'Th', þ: 'th', ı: 'i', Ħ: 'H', ħ: 'h', Ŧ: 'T', ŧ: 't', Ŀ: 'L', ŀ: 'l', Ð: 'D', ð: 'd',
};
const TRANSLIT_RE = new RegExp(`[${Object.keys(TRANSLIT).join('')}]`, 'g');

/** Latin letters to their ASCII look-alikes (NFKD, marks dropped, the table above); other characters removed. */
export function transliterate(s: string): string {
  return s
    .replace(TRANSLIT_RE, (c) => TRANSLIT[c])
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '');
}

/** RFC 8187 value characters: encodeURIComponent leaves ' ( ) * ! unencoded, which attr-char does not allow (but "!"). */
function rfc8187(s: string): string {
  return encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `attachment; filename="<ascii>.<ext>"; filename*=UTF-8''<utf-8>.<ext>` from a person's or a card's name. */
export function attachmentDisposition(name: string, ext: string, fallback: string): string {
  const base = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80) || fallback;
  const ascii = transliterate(base).replace(/["%;\\]/g, '').replace(/\s+/g, ' ').trim() || fallback;
  return `attachment; filename="${ascii}.${ext}"; filename*=UTF-8''${rfc8187(`${base}.${ext}`)}`;
}
