import crypto from 'node:crypto';
import { renderToStaticMarkup } from 'react-dom/server';
import { BUSINESS } from '#shared/catalogue';
import { profileLeadsPath, profileLinkHopPath, publicProfileUrl } from '#shared/routes';
import { PROFILE_CSS } from '#shared/profile/styles';
import { ProfileNotFound, ProfileView } from '#shared/profile/profile-layout';
import type { PublicProfile } from '#shared/schemas/profile';
import { ContactExchangeForm } from '#shared/engagement/contact-exchange-form';
import { CONTACT_EXCHANGE_CSS } from '#shared/engagement/styles';
import { escapeHtml, pageCsp } from '#server/http/html-page';

/**
 * The server-rendered public profile: one HTML document with the stylesheet inlined, readable
 * and able to save the contact with JavaScript off. The only script (Back to Designer going back
 * in history in preview mode) is inline and allowed by its hash in the page's CSP.
 */

const BACK_SCRIPT =
  "document.getElementById('pp-back').addEventListener('click',function(e){if(history.length>1){e.preventDefault();history.back()}});";
const BACK_SCRIPT_HASH = `'sha256-${crypto.createHash('sha256').update(BACK_SCRIPT).digest('base64')}'`;

/** The page's own CSP: no scripts (except the preview's one, by hash). */
export function profilePageCsp(preview: boolean): string {
  return pageCsp(preview ? BACK_SCRIPT_HASH : "'none'");
}

/** A sentence ends once: no period after a value that already ends one ("Acme, Inc." gave "Inc.."; issue 36). */
function sentence(s: string): string {
  const t = s.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

/** The page's meta description: who, what, where, then the call to save the contact. */
export function describeProfile(p: PublicProfile): string {
  const bits = [p.jobTitle, p.companyName].map((v) => v?.trim()).filter(Boolean).join(' at ');
  return bits ? `${sentence(`${p.fullName.trim()}, ${bits}`)} Save the contact in one tap.` : `${p.fullName.trim()}'s digital business card. Save the contact in one tap.`;
}

function abs(origin: string, url: string): string {
  return url.startsWith('/') ? origin + url : url;
}

export interface RenderProfileOptions {
  origin: string;
  preview: boolean;
  /** shows the contact exchange form (a plain multipart form: works with JavaScript off) */
  leadForm?: boolean;
}

export function renderProfilePage(profile: PublicProfile, opts: RenderProfileOptions): string {
  const pageUrl = publicProfileUrl(opts.origin, profile.id);
  const body = renderToStaticMarkup(
    <ProfileView
      profile={profile}
      linkHref={(l) => profileLinkHopPath(profile.id, l.id)}
      saveContactHref={`/api/vcard/${profile.id}`}
      backToDesignerHref={opts.preview ? '/profile?tab=share' : undefined}
      extra={opts.leadForm ? <ContactExchangeForm ownerName={profile.fullName} action={profileLeadsPath(profile.id)} /> : undefined}
    />,
  );
  const title = profile.jobTitle ? `${profile.fullName} – ${profile.jobTitle}` : profile.fullName;
  const description = describeProfile(profile);
  const image = profile.customPhotoUrl ?? profile.logoUrl ?? profile.bannerLogoUrl;
  const meta = [
    `<meta property="og:type" content="profile">`,
    `<meta property="og:site_name" content="${escapeHtml(BUSINESS.name)}">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    `<meta property="og:url" content="${escapeHtml(pageUrl)}">`,
    image ? `<meta property="og:image" content="${escapeHtml(abs(opts.origin, image))}">` : '',
    `<meta name="twitter:card" content="summary">`,
    `<meta name="twitter:title" content="${escapeHtml(title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(description)}">`,
  ].join('');
  const script = opts.preview ? `<script>${BACK_SCRIPT}</script>` : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title>` +
    `<meta name="description" content="${escapeHtml(description)}">` +
    `<meta name="robots" content="noindex">` +
    `<link rel="canonical" href="${escapeHtml(pageUrl)}">` +
    `<link rel="icon" href="data:,">` +
    meta +
    `<style>${PROFILE_CSS}${opts.leadForm ? CONTACT_EXCHANGE_CSS : ''}</style></head><body style="margin:0">${body}${script}</body></html>`
  );
}

export function renderNotFoundPage(): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>Profile Not Found</title><meta name="robots" content="noindex"><link rel="icon" href="data:,">` +
    `<style>${PROFILE_CSS}</style></head><body style="margin:0">${renderToStaticMarkup(<ProfileNotFound />)}</body></html>`
  );
}
