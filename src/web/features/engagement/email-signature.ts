import { LINK_TYPE_LABELS, type LinkType } from '#shared/schemas/profile';
import { publicProfileUrl } from '#shared/routes';
import { getQrcode } from '#shared/contracts/profile';
import { endpointHref } from '#web/lib/endpoint';
import { formatPhone, telHref } from '#shared/profile/phone';

/**
 * The e-mail signature made from a profile: an HTML fragment for mail clients and a plain-text
 * twin. Mail clients (Outlook's Word engine, Gmail, Apple Mail) ignore <style> blocks, classes,
 * flexbox, SVG and relative URLs, so the HTML here is: nested tables for layout, every style
 * inline, widths and heights as attributes too, images as absolute PNG/JPEG URLs served by us
 * (the photo from /files/..., the QR code from /api/qrcode?...&format=png), web-safe fonts.
 * Pure string work: used by the profile page's signature panel and by tests.
 */

export interface SignatureProfile {
  id: string;
  fullName: string;
  jobTitle: string | null;
  companyName: string | null;
  email: string | null;
  phoneNumber: string | null;
  customPhotoUrl: string | null;
  links: Array<{ linkType: LinkType | string; url: string }>;
}

export interface SignatureOptions {
  /** the site's origin, e.g. https://metalcards.nyc (every URL in the signature is absolute) */
  origin: string;
  showPhoto?: boolean;
  showQr?: boolean;
  showLinks?: boolean;
  /** the divider and link colour, #rrggbb */
  accent?: string;
}

export const SIGNATURE_DEFAULTS = { showPhoto: true, showQr: true, showLinks: true, accent: '#b8860b' } as const;
export const SIGNATURE_IMAGE_PX = 80;

export interface EmailSignature {
  html: string;
  text: string;
  /** where the signature's links lead: the public profile, counted as a shared-link view */
  profileUrl: string;
  qrImageUrl: string;
  photoUrl: string | null;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function isHttpUrl(u: string): boolean {
  try {
    const p = new URL(u);
    return p.protocol === 'http:' || p.protocol === 'https:';
  } catch {
    return false;
  }
}

function absolute(origin: string, url: string): string | null {
  if (url.startsWith('/') && !url.startsWith('//')) return origin + url;
  return isHttpUrl(url) ? url : null;
}

/** The public profile URL used by the signature (marked as a shared link for the analytics). */
export function signatureProfileUrl(origin: string, profileId: string): string {
  return publicProfileUrl(origin, profileId, { src: 'link' });
}

/** The hosted PNG of the profile's QR code (2x the shown size, for sharp screens). */
export function signatureQrImageUrl(origin: string, profileId: string): string {
  const o = origin.replace(/\/+$/, '');
  const target = publicProfileUrl(o, profileId);
  return `${o}${endpointHref(getQrcode, { query: { data: target, size: SIGNATURE_IMAGE_PX * 2, margin: 4, format: 'png' } })}`;
}

export function buildEmailSignature(profile: SignatureProfile, options: SignatureOptions): EmailSignature {
  const origin = options.origin.replace(/\/+$/, '');
  const opts = { ...SIGNATURE_DEFAULTS, ...stripUndefined(options) };
  const accent = /^#[0-9a-fA-F]{6}$/.test(opts.accent) ? opts.accent : SIGNATURE_DEFAULTS.accent;
  const profileUrl = signatureProfileUrl(origin, profile.id);
  const qrImageUrl = signatureQrImageUrl(origin, profile.id);
  const photoUrl = opts.showPhoto && profile.customPhotoUrl ? absolute(origin, profile.customPhotoUrl) : null;
  const links = opts.showLinks ? profile.links.filter((l) => isHttpUrl(l.url)) : [];
  const px = SIGNATURE_IMAGE_PX;
  const font = 'font-family:Arial,Helvetica,sans-serif;';
  const subtitle = [profile.jobTitle, profile.companyName].filter((v): v is string => !!v && !!v.trim());

  // ---- HTML ----
  const rows: string[] = [];
  const row = (inner: string, extra = '') => rows.push(`<tr><td style="${font}padding:0;${extra}">${inner}</td></tr>`);
  row(esc(profile.fullName), 'font-size:17px;line-height:22px;font-weight:bold;color:#111827;');
  if (subtitle.length) row(esc(subtitle.join(' | ')), 'font-size:13px;line-height:18px;color:#4b5563;');
  const contact: string[] = [];
  if (profile.email) contact.push(`<a href="mailto:${esc(profile.email)}" style="color:#1f2937;text-decoration:none;">${esc(profile.email)}</a>`);
  if (profile.phoneNumber) contact.push(`<a href="${esc(telHref(profile.phoneNumber))}" style="color:#1f2937;text-decoration:none;">${esc(formatPhone(profile.phoneNumber))}</a>`);
  if (contact.length) row(contact.join('<br>'), 'font-size:13px;line-height:19px;color:#1f2937;padding-top:6px;');
  if (links.length) {
    const parts = links.map(
      (l) => `<a href="${esc(l.url)}" style="color:${accent};text-decoration:none;">${esc(LINK_TYPE_LABELS[l.linkType as LinkType] ?? 'Link')}</a>`,
    );
    row(parts.join('<span style="color:#9ca3af;">&nbsp;&nbsp;|&nbsp;&nbsp;</span>'), 'font-size:13px;line-height:19px;padding-top:6px;');
  }
  row(
    `<a href="${esc(profileUrl)}" style="color:${accent};font-weight:bold;text-decoration:none;">View my digital business card &rarr;</a>`,
    'font-size:13px;line-height:19px;padding-top:8px;',
  );

  const cells: string[] = [];
  if (photoUrl) {
    cells.push(
      `<td valign="top" width="${px}" style="padding:0 14px 0 0;">` +
        `<img src="${esc(photoUrl)}" width="${px}" height="${px}" alt="${esc(profile.fullName)}" style="display:block;width:${px}px;height:${px}px;border:0;border-radius:${px / 2}px;">` +
        `</td>`,
    );
  }
  cells.push(
    `<td valign="top" style="padding:0 14px;border-left:2px solid ${accent};">` +
      `<table cellpadding="0" cellspacing="0" border="0" role="presentation" style="border-collapse:collapse;">${rows.join('')}</table>` +
      `</td>`,
  );
  if (opts.showQr) {
    cells.push(
      `<td valign="top" width="${px}" style="padding:0 0 0 14px;">` +
        `<a href="${esc(profileUrl)}" style="text-decoration:none;">` +
        `<img src="${esc(qrImageUrl)}" width="${px}" height="${px}" alt="QR code: scan to save my contact" style="display:block;width:${px}px;height:${px}px;border:0;">` +
        `</a></td>`,
    );
  }
  const html =
    `<table cellpadding="0" cellspacing="0" border="0" role="presentation" style="border-collapse:collapse;${font}color:#1f2937;">` +
    `<tr>${cells.join('')}</tr></table>`;

  // ---- plain text ----
  const text: string[] = [profile.fullName];
  if (subtitle.length) text.push(subtitle.join(' | '));
  if (profile.email) text.push(`Email: ${profile.email}`);
  if (profile.phoneNumber) text.push(`Phone: ${formatPhone(profile.phoneNumber)}`);
  for (const l of links) text.push(`${LINK_TYPE_LABELS[l.linkType as LinkType] ?? 'Link'}: ${l.url}`);
  text.push(`Digital business card: ${profileUrl}`);

  return { html, text: text.join('\n'), profileUrl, qrImageUrl, photoUrl };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
