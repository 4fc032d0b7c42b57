import { normalizeLinkUrl } from '#shared/schemas/common';
import { phoneDigits, toE164 } from './phone';

/**
 * A profile link's address by its type (issue 37, decision 37-03), one rule for the server (the
 * save's schema) and the editor (on blur, before sending): e-mail becomes `mailto:`, phone `tel:`
 * in E.164 ({@link toE164}: a number without its country is North American, decision 37-09),
 * WhatsApp `https://wa.me/<digits>`, a handle ("@name") of a network its profile address, and
 * everything else an http(s) URL through the profile's one URL normalisation
 * ({@link normalizeLinkUrl}; a bare "example.com" gets https://).
 */

export const LINK_MESSAGES = {
  url: 'Please enter a valid URL starting with http:// or https://',
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number',
  whatsapp: 'Please enter a WhatsApp number with its country code, e.g. +1 212 555 0100',
  label: 'Please enter a label for this link',
  labelLength: 'Label must be at most 40 characters',
} as const;

export const LINK_LABEL_MAX = 40;

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

/** "@name" on these networks is their profile address. */
const HANDLE_URL: Record<string, (h: string) => string> = {
  twitter: (h) => `https://x.com/${h}`,
  instagram: (h) => `https://www.instagram.com/${h}`,
  tiktok: (h) => `https://www.tiktok.com/@${h}`,
  youtube: (h) => `https://www.youtube.com/@${h}`,
  github: (h) => `https://github.com/${h}`,
};

function httpUrl(input: string): string | null {
  const v = input.trim();
  if (!v) return null;
  // a bare "example.com" gets https://; "//evil.com" and other odd spellings are left to be refused
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(v) || !/^[a-z0-9]/i.test(v) ? v : `https://${v}`;
  return normalizeLinkUrl(withScheme);
}

/** The stored address of a link of this type, or the field message saying what is wrong. */
export function normalizeProfileLink(linkType: string, input: string): { url: string } | { error: string } {
  const v = input.trim();
  switch (linkType) {
    case 'email': {
      const addr = v.replace(/^mailto:/i, '').trim();
      return addr.length <= 254 && EMAIL_RE.test(addr) ? { url: `mailto:${addr}` } : { error: LINK_MESSAGES.email };
    }
    case 'phone': {
      // the profile's one phone rule: E.164, a number without its country read as North American
      const n = toE164(v.replace(/^tel:/i, ''));
      return n ? { url: `tel:${n}` } : { error: LINK_MESSAGES.phone };
    }
    case 'whatsapp': {
      let number = v;
      const url = /^(https?:\/\/)?(wa\.me|(api|web)\.whatsapp\.com|whatsapp\.com)\b/i.test(v) ? httpUrl(v) : null;
      if (url) {
        const u = new URL(url);
        number = u.hostname === 'wa.me' ? u.pathname.slice(1) : (u.searchParams.get('phone') ?? '');
        if (!number.startsWith('+')) number = `+${number}`;
      }
      const n = phoneDigits(number);
      return n && n.startsWith('+') ? { url: `https://wa.me/${n.slice(1)}` } : { error: LINK_MESSAGES.whatsapp };
    }
    default: {
      const handle = HANDLE_URL[linkType] && /^@[A-Za-z0-9._-]{1,60}$/.test(v) ? HANDLE_URL[linkType](v.slice(1)) : null;
      const url = httpUrl(handle ?? v);
      return url ? { url } : { error: LINK_MESSAGES.url };
    }
  }
}

/** Whether a link opens a page (new tab), rather than the mail or phone app. */
export function opensPage(url: string): boolean {
  return /^https?:/i.test(url);
}
