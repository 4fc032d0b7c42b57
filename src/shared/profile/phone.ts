const PHONE_RE = /^[0-9+()\-.\s/]+$/;

/** A phone number's digits, with "+" when it names its country ("+1 ..." or "001 ..."); null when it is not one. */
export function phoneDigits(input: string): string | null {
  const v = input.trim();
  if (v.length > 40 || !PHONE_RE.test(v)) return null;
  let digits = v.replace(/\D/g, '');
  let international = v.startsWith('+');
  if (!international && digits.startsWith('00')) {
    digits = digits.slice(2);
    international = true;
  }
  if (international) return digits.length >= 8 && digits.length <= 15 && !digits.startsWith('0') ? `+${digits}` : null;
  return digits.length >= 5 && digits.length <= 15 ? digits : null;
}

/**
 * A phone number in E.164 (`+` and up to 15 digits) for machines that dial or import it (the vCard,
 * issue 37, decision 37-09): a number that names its country (`+44 20 ...`, `0044 20 ...`, or the
 * North American exit code `011 44 20 ...`) keeps it; a ten-digit North American number (the shop
 * is in New York: area code and exchange start with 2-9), with or without the leading 1, becomes
 * `+1...`. Any other national number has no country we could know: it is answered as its digits,
 * never guessed. Null when it is not a number.
 */
export function phoneE164(input: string): string | null {
  const trimmed = input.trim();
  // "011" is how a North American number dials abroad: the country follows
  if (/^011[\s.\-/()]*[1-9]/.test(trimmed)) {
    const n = phoneDigits(`+${trimmed.replace(/^011/, '')}`);
    if (n) return n;
  }
  const n = phoneDigits(trimmed);
  if (!n || n.startsWith('+')) return n;
  const nanp = /^1?([2-9]\d{2}[2-9]\d{6})$/.exec(n);
  return nanp ? `+1${nanp[1]}` : n;
}

/**
 * The one phone rule of the profile (issue 37 item 1, decision 37-09): the number as it is stored
 * (the profile's `phoneNumber` and a phone link's `tel:`), in E.164, read as {@link phoneE164}
 * reads it (a number without its country is North American); a `+1` number must be a North
 * American one (ten digits, area code and exchange 2-9). Null when it cannot be read so: the save
 * refuses it ("Please enter a valid phone number").
 */
export function toE164(input: string): string | null {
  const n = phoneE164(input);
  if (!n?.startsWith('+')) return null;
  if (n.startsWith('+1') && !/^\+1[2-9]\d{2}[2-9]\d{6}$/.test(n)) return null;
  return n;
}

/** Country calling codes of two digits (ITU-T E.164); 1 and 7 have one, every other code three. */
const TWO_DIGIT_CODES = new Set('20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98'.split(' '));

function countryCodeLength(digits: string): number {
  if (digits.startsWith('1') || digits.startsWith('7')) return 1;
  return TWO_DIGIT_CODES.has(digits.slice(0, 2)) ? 2 : 3;
}

/** A national number in groups for reading: threes, ending in a four (or two): 3 4, 4 4, 3 3 3, 3 3 4, 3 4 4. */
function grouped(n: string): string {
  if (n.length <= 4) return n;
  if (n.length === 5) return `${n.slice(0, 2)} ${n.slice(2)}`;
  const tail = n.length % 3 === 0 ? [] : n.length % 3 === 1 ? [4] : [4, 4];
  const sizes = [...Array<number>((n.length - tail.reduce((a, b) => a + b, 0)) / 3).fill(3), ...tail];
  const out: string[] = [];
  let at = 0;
  for (const s of sizes) {
    out.push(n.slice(at, at + s));
    at += s;
  }
  return out.join(' ');
}

/**
 * How a stored phone number is shown to people (the public page, the editor, the card, the
 * signature): international and readable, `+1 212-555-0100` for a North American number (the
 * usual way of writing it) and `+44 207 946 0958` elsewhere (the country code, then the number in
 * groups; not each country's own grouping, which would need its numbering plan). A value that is
 * not E.164 (saved before numbers were stored so, or written by another way in) is read first
 * (normalised on read); one that cannot be read is shown as it is.
 */
export function formatPhone(value: string): string {
  const e = toE164(value);
  if (!e) return value.trim();
  const d = e.slice(1);
  if (d.startsWith('1')) return `+1 ${d.slice(1, 4)}-${d.slice(4, 7)}-${d.slice(7)}`;
  const cc = countryCodeLength(d);
  return `+${d.slice(0, cc)} ${grouped(d.slice(cc))}`;
}

/** The stored form of a value read back: E.164 when it can be read so (normalised on read), else as it is. */
export function storedPhone<T extends string | null>(value: T): T {
  return (value === null ? value : (toE164(value) ?? value)) as T;
}

/** A phone link's address read back: its `tel:` number in E.164 when it can be read so, else as saved. */
export function storedTelUrl(url: string): string {
  return /^tel:/i.test(url) ? `tel:${storedPhone(url.slice(4))}` : url;
}

/** A `tel:` address: E.164 when the number can be read so, else its dialable characters. */
export function telHref(value: string): string {
  return `tel:${toE164(value) ?? value.replace(/[^0-9+*#,]/g, '')}`;
}
