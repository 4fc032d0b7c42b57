import { z } from 'zod';

/** Single-line text: trimmed, no CR/LF or other control characters, capped. */
export const singleLine = (max: number, label = 'This field') =>
  z
    .string()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), `${label} must be a single line of text`)
    .transform((s) => s.trim());

/** Multi-line text: newlines allowed, other control characters not. */
export const multiLine = (max: number, label = 'This field') =>
  z
    .string()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), `${label} contains invalid characters`)
    .transform((s) => s.trim());

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

export const emailField = (message = 'Please enter a valid email address') =>
  z
    .string()
    .max(254, message)
    .transform((s) => s.trim())
    .refine((s) => EMAIL_RE.test(s), message);

/**
 * A link a person saves (profile links, website, LinkedIn): parsed with the WHATWG URL parser and
 * answered in its normalised form (issue 19.9), so what is stored is what a browser would open.
 * Only http(s) with a real host (a dotted name or an IP address), no user name or password in it,
 * and written as http:// or https:// (not `http:evil.com` or `https:/\\evil.com`).
 */
export function normalizeLinkUrl(raw: string): string | null {
  const s = raw.trim();
  if (!s || s.length > 2048 || /[\u0000-\u001f\u007f\s\\]/.test(s)) return null;
  if (!/^https?:\/\/[^/]/i.test(s)) return null;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password) return null;
  const host = u.hostname;
  const ip = /^\[[0-9a-f:.]+\]$/i.test(host) || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
  if (!ip && !/^(?!-)[a-z0-9-]{1,63}(\.(?!-)[a-z0-9-]{1,63})*\.(xn--[a-z0-9-]{1,59}|[a-z]{2,63})\.?$/i.test(host)) return null;
  // a bare origin keeps its familiar spelling (https://example.com, not https://example.com/): the
  // same URL to every parser, and what is shown on the profile and printed on a card
  if (u.pathname === '/' && !u.search && !u.hash && !s.endsWith('/')) return u.href.slice(0, -1);
  return u.href;
}

/** A saved link: {@link normalizeLinkUrl}, answered normalised. */
export const savedLinkUrl = (message = 'Please enter a valid URL starting with http:// or https://') =>
  z
    .string()
    .max(2048, 'URL is too long')
    .transform((s, ctx) => {
      const href = normalizeLinkUrl(s);
      if (href === null) {
        ctx.issues.push({ code: 'custom', message, input: s });
        return z.NEVER;
      }
      return href;
    });

/** `:id` of a numbered row (orders, reviews, leads, outbox e-mails). */
export const IdParams = z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) });

// ---- answers shared by every feature ----

/**
 * Every error answer (4xx/5xx): the first problem as text, and per-field messages when the input
 * was refused ({ "field.path": "message" }).
 */
export const ErrorResponse = z
  .strictObject({
    message: z.string(),
    errors: z.record(z.string(), z.string()).optional(),
    /** a refused order status move: what it still needs (design, proof, address, payment, tracking, ...) */
    missing: z.array(z.string()).optional(),
    /** what the client can do about a 403 (issue 39): `two_factor_setup_required`, `recent_auth_required` */
    code: z.string().optional(),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** A plain confirmation: { message }. */
export const MessageResponse = z.strictObject({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** An answer without a body (redirects, 304 Not Modified). */
export const EmptyResponse = z.null().describe('No body');

/** What a handler may send for a text or binary answer: the text, the bytes, or a stream of them. */
type Sendable = string | Uint8Array | { pipe: (...args: never[]) => unknown };

/**
 * A text document answered as is (HTML page, SVG, CSV, vCard): the media type is in `description`.
 * At run time a string schema (what the API document shows); typed so handlers may send bytes or streams.
 */
export const textDocument = (mediaType: string) => z.string().describe(mediaType) as unknown as z.ZodType<Sendable>;

/** A binary file (PNG, JPEG, TTF, stored uploads): the media type is in `description`. */
export const binaryFile = (mediaType: string) => z.string().meta({ format: 'binary', description: mediaType }) as unknown as z.ZodType<Sendable>;

/** ISO 8601 date and time as JSON carries it (`2025-01-01T00:00:00.000Z`). */
export const isoDateTime = z.iso.datetime({ offset: true });
/** Calendar date (`2025-01-01`). */
export const isoDate = z.iso.date();

