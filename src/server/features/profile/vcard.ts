import { linkLabel, type PublicProfile } from '#shared/schemas/profile';
import { attachmentDisposition } from '#server/http/download-name';
import { splitPersonName } from '#shared/person-name';
import { phoneE164 } from '#shared/profile/phone';

/**
 * vCard 3.0 (RFC 2426) writer. Rules kept here:
 * - lines end with CRLF and are folded at 75 octets (continuation lines start with a space),
 *   never inside a UTF-8 character
 * - text values escape backslash, comma and semicolon, and newlines become \n; a CR or LF in
 *   any value can therefore never start a new property
 * - empty values are left out entirely
 * - PHOTO and LOGO are embedded base64 JPEGs (iOS and Android both show them)
 */

export interface VcardInput {
  profile: PublicProfile;
  /** absolute URL of the public profile page */
  profileUrl: string;
  /** absolute URL of a QR code image of the profile URL */
  qrCodeUrl: string;
  photoJpeg?: Buffer | null;
  logoJpeg?: Buffer | null;
  /** the shop's name (no longer written into the card: decision 37-09) */
  brandName: string;
  /** last change (REV) */
  updatedAt?: Date;
}

/** Escapes a TEXT value. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/,/g, '\\,')
    .replace(/;/g, '\\;')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

/** URIs carry no escapes in 3.0 but must stay on one line. */
function uriValue(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f\s]/g, '');
}

/** Folds one logical line at 75 octets without splitting a UTF-8 sequence. */
export function foldLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const out: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // back up to a character boundary (continuation bytes are 10xxxxxx)
    while (end < bytes.length && end > start && (bytes[end] & 0xc0) === 0x80) end--;
    out.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74; // the leading space counts
  }
  return out.join('\r\n ');
}

/** Splits a full name into family and given names for N (last word is the family name). */
/** Given and family name for vCard N: the project's one rule (src/shared/person-name.ts, decision 36-01). */
export function splitName(full: string): { family: string; given: string } {
  return splitPersonName(full);
}

export function buildVcard(input: VcardInput): string {
  const p = input.profile;
  const lines: string[] = ['BEGIN:VCARD', 'VERSION:3.0'];
  const add = (name: string, value: string | null | undefined, raw = false) => {
    if (value === null || value === undefined) return;
    const v = raw ? uriValue(value) : escapeText(value.trim());
    if (!v) return;
    lines.push(`${name}:${v}`);
  };

  const { family, given } = splitName(p.fullName);
  lines.push(`N:${escapeText(family)};${escapeText(given)};;;`);
  add('FN', p.fullName);
  add('TITLE', p.jobTitle);
  add('ORG', p.companyName);
  add('EMAIL;TYPE=INTERNET,PREF', p.email);
  // dialable from any country: E.164 where the number says or implies its country (decision 37-09)
  add('TEL;TYPE=CELL,VOICE', p.phoneNumber ? (phoneE164(p.phoneNumber) ?? p.phoneNumber) : null);
  if (p.address && p.address.trim()) {
    // the address is one free-text line: kept as the street part and as the label
    lines.push(`ADR;TYPE=WORK:;;${escapeText(p.address.trim())};;;;`);
  }
  const website = p.links.find((l) => l.linkType === 'website');
  add('URL', website ? website.url : input.profileUrl, true);
  // the digital profile, labelled (Apple's grouping syntax; others read it as a plain URL)
  add('item1.URL', input.profileUrl, true);
  add('item1.X-ABLabel', 'Digital Profile');
  add('X-DIGITAL-PROFILE', input.profileUrl, true);
  let item = 2;
  for (const l of p.links) {
    if (website && l.id === website.id) continue;
    add(`item${item}.URL`, l.url, true);
    add(`item${item}.X-ABLabel`, linkLabel(l));
    item++;
  }
  add('X-QR-CODE', input.qrCodeUrl, true);
  if (input.photoJpeg?.length) lines.push(`PHOTO;ENCODING=b;TYPE=JPEG:${input.photoJpeg.toString('base64')}`);
  if (input.logoJpeg?.length) lines.push(`LOGO;ENCODING=b;TYPE=JPEG:${input.logoJpeg.toString('base64')}`);
  // no NOTE: the contact is the person's, not a place for our marketing line (issue 37)
  lines.push(`REV:${(input.updatedAt ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z')}`);
  lines.push('END:VCARD');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/** "{name}.vcf" made safe for a Content-Disposition header (ASCII fallback plus UTF-8 form). */
export function vcardDisposition(fullName: string): string {
  return attachmentDisposition(fullName, 'vcf', 'contact');
}
