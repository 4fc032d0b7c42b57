/**
 * One-time links in e-mails (issue 33, decision 33-03): password reset, e-mail change, address
 * verification, order claim and team invitation links carry a token that works by itself. The
 * outbox keeps an e-mail's body only to send it: once sent, its stored body keeps a label in place
 * of each such link ("[password reset link]"), and staff never see the link, not even in an e-mail
 * still waiting to go out.
 *
 * The shapes are the paths our e-mails build (`/reset-password?token=`, `/confirm-email?verify=`,
 * `/confirm-email?token=`, `/claim/{token}`, `/team/join/{token}`), matched with or without an
 * origin in front, in text and in HTML (an attribute value or the visible text).
 */
const URL_PREFIX = String.raw`(?:https?:\/\/[^\s"'<>]*?)?`;
const TOKEN = String.raw`[A-Za-z0-9_.~%-]+`;

const SHAPES: ReadonlyArray<{ label: string; path: string }> = [
  { label: '[password reset link]', path: String.raw`\/reset-password\?(?:[^\s"'<>#]*?&(?:amp;)?)?token=` },
  { label: '[verification link]', path: String.raw`\/confirm-email\?(?:[^\s"'<>#]*?&(?:amp;)?)?verify=` },
  { label: '[e-mail change link]', path: String.raw`\/confirm-email\?(?:[^\s"'<>#]*?&(?:amp;)?)?token=` },
  { label: '[order claim link]', path: String.raw`\/claim\/` },
  { label: '[team invitation link]', path: String.raw`\/team\/join\/` },
];

const PATTERNS = SHAPES.map((s) => ({ label: s.label, re: new RegExp(`${URL_PREFIX}${s.path}${TOKEN}`, 'gi') }));

/** The body with every one-time link replaced by its label (a body without one comes back as it was). */
export function redactOneTimeLinks(body: string): string {
  let out = body;
  for (const p of PATTERNS) out = out.replace(p.re, p.label);
  return out;
}

