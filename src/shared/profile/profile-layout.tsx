import type { CSSProperties, ReactNode } from 'react';
import { ArrowLeft, Building2, Download, Mail, MapPin, Phone, Share2 } from 'lucide-react';
import { LinkIcon } from './link-icons';
import { BUSINESS } from '#shared/catalogue';
import { linkLabel, PROFILE_LAYOUTS, type ProfileLayout as LayoutName, type ProfileLink, type PublicProfile } from '#shared/schemas/profile';
import { opensPage } from './links';
import { formatPhone, telHref } from './phone';

/**
 * The five public-profile layouts as pure React components (no browser APIs, no hooks), rendered
 * to HTML by the server for /p/{id} and by the SPA when it shows the same page client-side.
 * Styling lives in PROFILE_CSS (./styles.ts). Later features add content through `extra`
 * (placed after the links) without touching the layouts.
 */
export interface ProfileViewProps {
  profile: PublicProfile;
  /** where a link button goes (the click-counting redirect on the public page) */
  linkHref?: (link: ProfileLink) => string;
  /** the contact file's URL (Save Contact) */
  saveContactHref: string;
  /** file name suggested for the contact file */
  saveContactFileName?: string;
  /** shows the preview bar with Back to Designer linking here */
  backToDesignerHref?: string;
  /** client-side: Back to Designer goes back in history instead of following the link */
  onBack?: () => void;
  /** extra sections after the links (e.g. lead capture) */
  extra?: ReactNode;
  /** brand footer (default on) */
  showFooter?: boolean;
  /**
   * The address a visitor shares (the short /@{handle} one when there is one): shown as a link, so
   * it can be copied with JavaScript off, with a Share button beside it. The server's page reveals
   * the button from its one small script (Web Share, else Copy link); the SPA passes `onShare`.
   */
  shareUrl?: string;
  onShare?: () => void;
}

/** An address on a map (decision 37-04): OpenStreetMap's search, which opens on every device without an account or a key. */
export function mapHref(address: string): string {
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(address.replace(/\s+/g, ' ').trim())}`;
}

export function layoutOf(p: Pick<PublicProfile, 'profileTemplate'>): LayoutName {
  return (PROFILE_LAYOUTS as readonly string[]).includes(p.profileTemplate) ? p.profileTemplate : 'classic';
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? '';
  const last = parts.length > 1 ? parts[parts.length - 1][0] : '';
  return (first + last).toUpperCase();
}

const ICON = { size: 18, 'aria-hidden': true } as const;

function Photo({ profile }: { profile: PublicProfile }) {
  if (profile.customPhotoUrl) {
    return <img className="pp-photo" src={profile.customPhotoUrl} alt={`Photo of ${profile.fullName}`} width={128} height={128} decoding="async" />;
  }
  return (
    <div className="pp-photo pp-initials" role="img" aria-label={`${profile.fullName} (no photo)`}>
      {initials(profile.fullName)}
    </div>
  );
}

function Header({ profile, layout }: { profile: PublicProfile; layout: LayoutName }) {
  // classic and modern show the banner logo; corporate shows the company logo
  if ((layout === 'classic' || layout === 'modern') && profile.bannerLogoUrl) {
    return (
      <div className="pp-header">
        <img className="pp-header-logo" src={profile.bannerLogoUrl} alt={profile.companyName ? `${profile.companyName} banner` : 'Banner logo'} height={48} />
      </div>
    );
  }
  // a team member's page shows the team's logo in every layout (issue 37; decision 37-04)
  if (profile.brand && layout !== 'corporate' && profile.logoUrl) {
    return (
      <div className="pp-header">
        <img className="pp-header-logo" src={profile.logoUrl} alt={`${profile.companyName || profile.brand.teamName} logo`} height={48} />
      </div>
    );
  }
  if (layout === 'corporate') {
    return (
      <div className="pp-header">
        {profile.logoUrl ? (
          <img className="pp-header-logo" src={profile.logoUrl} alt={profile.companyName ? `${profile.companyName} logo` : 'Company logo'} height={44} />
        ) : profile.companyName ? (
          <span className="pp-header-name">{profile.companyName}</span>
        ) : null}
      </div>
    );
  }
  return <div className="pp-header" aria-hidden="true" />;
}

function ContactRows({ profile }: { profile: PublicProfile }) {
  const rows: ReactNode[] = [];
  if (profile.email) {
    rows.push(
      <li className="pp-row" key="email">
        <Mail {...ICON} />
        <span>
          <span className="pp-row-label">Email</span>
          <a href={`mailto:${profile.email}`}>{profile.email}</a>
        </span>
      </li>,
    );
  }
  if (profile.phoneNumber) {
    rows.push(
      <li className="pp-row" key="phone">
        <Phone {...ICON} />
        <span>
          <span className="pp-row-label">Phone</span>
          {/* stored in E.164 (decision 37-09): dialled so, shown readable */}
          <a className="pp-tel" href={telHref(profile.phoneNumber)}>
            {formatPhone(profile.phoneNumber)}
          </a>
        </span>
      </li>,
    );
  }
  if (profile.address) {
    rows.push(
      <li className="pp-row" key="address">
        <MapPin {...ICON} />
        <span>
          <span className="pp-row-label">Address</span>
          <a href={mapHref(profile.address)} target="_blank" rel="noopener noreferrer" aria-label={`${profile.address} (open in a map)`}>
            {profile.address}
          </a>
        </span>
      </li>,
    );
  }
  if (!rows.length) return null;
  return <ul className="pp-rows">{rows}</ul>;
}

function Links({ profile, linkHref }: { profile: PublicProfile; linkHref: (l: ProfileLink) => string }) {
  if (!profile.links.length) return null;
  return (
    <nav className="pp-links" aria-label="Links">
      {profile.links.map((l) => {
        const label = linkLabel(l);
        // a page opens in a new tab; e-mail and phone links open their app here
        const page = opensPage(l.url);
        return (
          <a key={l.id} className="pp-link" href={linkHref(l)} target={page ? '_blank' : undefined} rel={page ? 'noopener noreferrer' : undefined}>
            <LinkIcon linkType={l.linkType} {...ICON} />
            <span>{label}</span>
          </a>
        );
      })}
    </nav>
  );
}

/** The page's address to copy, and the Share button (hidden until a script or the SPA can act on it). */
function ShareRow({ url, onShare }: { url: string; onShare?: () => void }) {
  return (
    <div className="pp-share">
      <a className="pp-share-url" href={url}>
        {url.replace(/^https?:\/\//, '')}
      </a>
      <button type="button" id="pp-share" className="pp-share-btn" data-url={url} hidden={!onShare} onClick={onShare}>
        <Share2 size={16} aria-hidden={true} />
        <span id="pp-share-text">Share</span>
      </button>
    </div>
  );
}

/** One public profile in its chosen layout. */
export function ProfileView(props: ProfileViewProps) {
  const { profile } = props;
  const layout = layoutOf(profile);
  const linkHref = props.linkHref ?? ((l: ProfileLink) => l.url);
  return (
    <div
      className={`pp-page pp-${layout}${profile.brand ? ' pp-branded' : ''}`}
      data-layout={layout}
      // a team member's page takes the team's colours (issue 21; both checked readable on white)
      style={profile.brand ? ({ '--pp-primary': profile.brand.primaryColor, '--pp-accent': profile.brand.accentColor } as CSSProperties) : undefined}
    >
      {props.backToDesignerHref ? (
        <div className="pp-bar">
          <a
            id="pp-back"
            className="pp-back"
            href={props.backToDesignerHref}
            onClick={
              props.onBack
                ? (e) => {
                    e.preventDefault();
                    props.onBack!();
                  }
                : undefined
            }
          >
            <ArrowLeft size={16} aria-hidden={true} />
            Back to Designer
          </a>
        </div>
      ) : null}
      <main className="pp-card">
        <Header profile={profile} layout={layout} />
        <div className="pp-body">
          <Photo profile={profile} />
          <h1 className="pp-name">{profile.fullName}</h1>
          {profile.jobTitle ? <p className="pp-title">{profile.jobTitle}</p> : null}
          {profile.companyName && layout !== 'corporate' ? (
            <p className="pp-company">{profile.companyName}</p>
          ) : profile.companyName ? (
            <p className="pp-company">
              <Building2 size={14} aria-hidden={true} /> {profile.companyName}
            </p>
          ) : null}
          <a className="pp-save" href={props.saveContactHref} download={props.saveContactFileName ?? true} type="text/vcard">
            <Download size={20} aria-hidden={true} />
            Save Contact
          </a>
          <ContactRows profile={profile} />
          <Links profile={profile} linkHref={linkHref} />
          {props.shareUrl ? <ShareRow url={props.shareUrl} onShare={props.onShare} /> : null}
          {props.extra ? <div className="pp-extra">{props.extra}</div> : null}
        </div>
      </main>
      {props.showFooter === false ? null : (
        // a footer landmark (contentinfo), so all of the page's content is in a landmark
        <footer className="pp-foot">
          Digital business card by <a href="/">{BUSINESS.name}</a>
        </footer>
      )}
    </div>
  );
}

/** Shown for an unknown profile id (with HTTP 404 on the server). */
export function ProfileNotFound() {
  return (
    <div className="pp-page">
      <main className="pp-missing">
        <h1>Profile Not Found</h1>
        <p>This profile does not exist or has been removed.</p>
        <a href="/">Go to the home page</a>
      </main>
    </div>
  );
}
