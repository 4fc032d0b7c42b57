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
import { handlePath } from '#shared/profile/handle';

/**
 * The server-rendered public profile: one HTML document with the stylesheet inlined, readable
 * and able to save the contact with JavaScript off. Its scripts (Share; Back to Designer going back
 * in history in preview mode) are inline, tiny and allowed by their hashes in the page's CSP.
 */

const BACK_SCRIPT =
  "document.getElementById('pp-back').addEventListener('click',function(e){if(history.length>1){e.preventDefault();history.back()}});";
const BACK_SCRIPT_HASH = `'sha256-${crypto.createHash('sha256').update(BACK_SCRIPT).digest('base64')}'`;

/**
 * Share (decision 37-04): reveals the Share button when the browser can act on it (the Web Share
 * sheet, else Copy link to the clipboard). With JavaScript off the address stays a plain link.
 */
const SHARE_SCRIPT =
  "(function(){var b=document.getElementById('pp-share'),x=document.getElementById('pp-share-text'),n=navigator;if(!b||!x)return;var u=b.getAttribute('data-url'),c=n.clipboard&&n.clipboard.writeText;if(!n.share&&!c)return;if(!n.share)x.textContent='Copy link';b.hidden=false;b.addEventListener('click',function(){if(n.share){n.share({title:document.title,url:u}).catch(function(){})}else{n.clipboard.writeText(u).then(function(){x.textContent='Link copied'},function(){x.textContent='Copy failed'})}})})();";
const SHARE_SCRIPT_HASH = `'sha256-${crypto.createHash('sha256').update(SHARE_SCRIPT).digest('base64')}'`;

/** The page's own CSP: only its own inline scripts, by hash (Share; Back to Designer in preview). */
export function profilePageCsp(preview: boolean): string {
  return pageCsp(preview ? `${SHARE_SCRIPT_HASH} ${BACK_SCRIPT_HASH}` : SHARE_SCRIPT_HASH);
}

/** The page without any script (the 404 page). */
export function plainPageCsp(): string {
  return pageCsp("'none'");
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
  const shareUrl = profile.handle ? opts.origin.replace(/\/+$/, '') + handlePath(profile.handle) : pageUrl;
  const body = renderToStaticMarkup(
    <ProfileView
      profile={profile}
      shareUrl={shareUrl}
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
  const script = `<script>${SHARE_SCRIPT}</script>` + (opts.preview ? `<script>${BACK_SCRIPT}</script>` : '');
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
