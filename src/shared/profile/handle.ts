import { z } from 'zod';
import { BUSINESS } from '#shared/catalogue';

/**
 * A profile's handle (issue 37, decision 37-04): the short address `/@{handle}` beside the
 * permanent `/p/{id}` that printed cards and QR codes keep using.
 *
 * - 3 to 30 characters: a-z, 0-9, "-" and "_"; starts and ends with a letter or digit, no two
 *   separators in a row. Stored and shown in lower case (`/@Ann` serves `/@ann`).
 * - Unique by its skeleton ({@link handleSkeleton}): lower case, separators dropped and look-alikes
 *   folded (0 -> o; 1, i and l -> l; rn -> m; vv -> w), so `j0hn` cannot sit beside `john`, nor `jo-hn`.
 * - Reserved: the site's own paths and names that would pass for the shop or its staff.
 */
export const HANDLE_MIN = 3;
export const HANDLE_MAX = 30;
/** how long a changed handle keeps redirecting to the profile (then anyone may take it) */
export const HANDLE_REDIRECT_DAYS = 30;

export const HANDLE_MESSAGES = {
  length: `A handle is ${HANDLE_MIN} to ${HANDLE_MAX} characters`,
  chars: 'Use only letters, digits, "-" and "_", starting and ending with a letter or digit',
  reserved: 'This handle is reserved. Please choose another',
  taken: 'This handle is taken. Please choose another',
  noProfile: 'Save your profile first, then choose a handle',
} as const;

const HANDLE_RE = /^[a-z0-9](?:[a-z0-9]|[-_](?=[a-z0-9]))*$/;

/** Lower case, separators dropped, look-alike letters folded: two handles with one skeleton are one. */
export function handleSkeleton(handle: string): string {
  return handle
    .toLowerCase()
    .replace(/[-_]/g, '')
    .replace(/0/g, 'o')
    .replace(/[1il|]/g, 'l')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}

/** The site's own first path segments and words that would pass for the shop or its staff. */
const RESERVED_WORDS = [
  'about', 'account', 'admin', 'administrator', 'ai', 'ai-assistant', 'api', 'app', 'assets', 'billing', 'blog',
  'c', 'card', 'card-generator', 'cards', 'checkout', 'claim', 'confirm-email', 'contact', 'create-card', 'dashboard',
  'design', 'docs', 'faq', 'files', 'fonts', 'forgot-password', 'help', 'home', 'info', 'legal', 'login', 'logout',
  'mail', 'me', 'metrics', 'moderator', 'my-orders', 'news', 'null', 'order', 'order-status', 'order-success', 'orders',
  'p', 'pricing', 'privacy', 'profile', 'profiles', 'react-refresh', 'reset-password', 'resources', 'reviews', 'root',
  'sales', 'security', 'staff', 'settings', 'shop', 'shopify-admin', 'shopify-test', 'signin', 'signup', 'static', 'status',
  'store', 'studio', 'svg-templates', 'system', 'team', 'templates', 'terms', 'undefined', 'vite', 'webhooks', 'www',
];
/** Anywhere in a handle, these would pass for the shop or its people. */
const RESERVED_STEMS = ['admin', 'support', 'official', 'moderator', 'metalcard', BUSINESS.name.replace(/[^A-Za-z0-9]/g, '')];

const reservedSkeletons = new Set(RESERVED_WORDS.map(handleSkeleton));
const reservedStems = RESERVED_STEMS.map(handleSkeleton).filter((s) => s.length >= 4);

export function isReservedHandle(handle: string): boolean {
  const s = handleSkeleton(handle);
  return reservedSkeletons.has(s) || reservedStems.some((stem) => s.includes(stem));
}

/** The handle's problem in words, or null when it may be used (availability is the server's). */
export function handleProblem(raw: string): string | null {
  const h = raw.trim().replace(/^@/, '').toLowerCase();
  if (h.length < HANDLE_MIN || h.length > HANDLE_MAX) return HANDLE_MESSAGES.length;
  if (!HANDLE_RE.test(h)) return HANDLE_MESSAGES.chars;
  if (isReservedHandle(h)) return HANDLE_MESSAGES.reserved;
  return null;
}

/** The request's handle: trimmed, a leading "@" dropped, lower case; "" or null removes it. */
export const HandleField = z
  .string({ error: HANDLE_MESSAGES.chars })
  .max(100, HANDLE_MESSAGES.length)
  .nullable()
  .transform((v) => (v ?? '').trim().replace(/^@/, '').toLowerCase())
  .superRefine((v, ctx) => {
    if (v === '') return;
    const problem = handleProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((v) => (v === '' ? null : v));

/** `/@{handle}` */
export function handlePath(handle: string): string {
  return `/@${encodeURIComponent(handle)}`;
}
