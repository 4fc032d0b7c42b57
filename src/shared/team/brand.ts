import { contrastRatio } from '#shared/ai/color';
import { PROFILE_LAYOUTS, type ProfileLayout, type PublicProfile } from '#shared/schemas/profile';

/**
 * A team's brand (issue 21) and how it reaches every member's public page and cards. Pure: the
 * server applies it when it reads a public profile, the web shows which fields are locked.
 *
 * - Colours, the team's name and (when set) the logo are always applied.
 * - The company fields (company name, address, website), the profile layout and the card template
 *   fill in what a member left empty; a **locked** field always shows the team's value, and the
 *   member cannot change it (400 "This field is managed by your team").
 */
export const LOCKABLE_FIELDS = ['companyName', 'address', 'website', 'logoUrl', 'profileTemplate', 'templateId'] as const;
export type LockableField = (typeof LOCKABLE_FIELDS)[number];

export const LOCKABLE_FIELD_LABELS: Record<LockableField, string> = {
  companyName: 'Company name',
  address: 'Address',
  website: 'Website',
  logoUrl: 'Logo',
  profileTemplate: 'Profile layout',
  templateId: 'Card template',
};

export const LOCKED_FIELD_MESSAGE = 'This field is managed by your team';

export const DEFAULT_BRAND_COLORS = { primaryColor: '#1f2937', accentColor: '#1d4ed8' } as const;

/** The brand document stored with the team. */
export interface TeamBrand {
  logoUrl: string | null;
  primaryColor: string;
  accentColor: string;
  profileLayout: ProfileLayout | null;
  templateId: number | null;
  lockedFields: LockableField[];
}

/** The team's part of what a public page shows. */
export interface TeamBrandSource {
  name: string;
  companyName: string | null;
  address: string | null;
  website: string | null;
  brand: TeamBrand;
}

const HEX_RE = /^#[0-9a-f]{6}$/i;

/** White text on the colour stays readable (WCAG AA, 4.5:1): the Save button and the header. */
export function readableOnWhite(hex: string): boolean {
  return HEX_RE.test(hex) && contrastRatio(hex, '#ffffff') >= 4.5;
}

/** A stored brand document, whatever it holds, as a complete brand (unknown values dropped). */
export function brandOf(raw: unknown): TeamBrand {
  const b = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const color = (v: unknown, fallback: string) => (typeof v === 'string' && readableOnWhite(v) ? v.toLowerCase() : fallback);
  return {
    logoUrl: typeof b.logoUrl === 'string' && b.logoUrl ? b.logoUrl : null,
    primaryColor: color(b.primaryColor, DEFAULT_BRAND_COLORS.primaryColor),
    accentColor: color(b.accentColor, DEFAULT_BRAND_COLORS.accentColor),
    profileLayout: (PROFILE_LAYOUTS as readonly unknown[]).includes(b.profileLayout) ? (b.profileLayout as ProfileLayout) : null,
    templateId: typeof b.templateId === 'number' && Number.isInteger(b.templateId) && b.templateId > 0 ? b.templateId : null,
    lockedFields: Array.isArray(b.lockedFields) ? LOCKABLE_FIELDS.filter((f) => (b.lockedFields as unknown[]).includes(f)) : [],
  };
}

export function isLocked(brand: Pick<TeamBrand, 'lockedFields'>, field: LockableField): boolean {
  return brand.lockedFields.includes(field);
}

/** The team's value of a lockable field (null: the team has none). */
export function teamValueOf(team: TeamBrandSource, field: LockableField): string | number | null {
  switch (field) {
    case 'companyName':
      return team.companyName || team.name || null;
    case 'address':
      return team.address;
    case 'website':
      return team.website;
    case 'logoUrl':
      return team.brand.logoUrl;
    case 'profileTemplate':
      return team.brand.profileLayout;
    case 'templateId':
      return team.brand.templateId;
  }
}

/**
 * The sites a social link type may point to. Under a website lock (issue 33) a member's link must
 * point to the team's website or, for a social type, to that network; `website` and `other` links
 * only to the team's website. The lock covers every link type, not only `website`.
 */
const SOCIAL_HOSTS: Partial<Record<string, readonly string[]>> = {
  linkedin: ['linkedin.com', 'lnkd.in'],
  twitter: ['twitter.com', 'x.com'],
  instagram: ['instagram.com'],
  facebook: ['facebook.com', 'fb.com', 'fb.me'],
  github: ['github.com'],
};

export const WEBSITE_LOCK_LINK_MESSAGE = "Your team manages the website: a link can point only to the team's website or to its own social network";

function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** `host` is `domain` or one of its subdomains (www.example.com is on example.com). */
function onDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** Whether a member's link may show while the team locks its website (`teamWebsite`: the team's). */
export function linkAllowedUnderWebsiteLock(link: { linkType: string; url: string }, teamWebsite: string | null): boolean {
  const host = hostOf(link.url);
  if (!host) return false;
  const teamHost = hostOf(teamWebsite)?.replace(/^www\./, '');
  if (teamHost && onDomain(host, teamHost)) return true;
  return (SOCIAL_HOSTS[link.linkType] ?? []).some((d) => onDomain(host, d));
}

/**
 * The member's public profile as visitors see it under the team's brand: locked fields show the
 * team's value, empty ones are filled from it, and the page takes the team's colours. Under a logo
 * lock the header's banner logo is the locked logo too; under a website lock only the team's website
 * and the members' social links to their own networks show (issue 33).
 */
export function applyBrand(profile: PublicProfile, team: TeamBrandSource): PublicProfile {
  const pick = <T,>(field: LockableField, own: T | null): T | null => {
    const teamValue = teamValueOf(team, field) as T | null;
    if (isLocked(team.brand, field)) return teamValue ?? own;
    return own || teamValue;
  };
  let links = profile.links;
  const website = team.website;
  const websiteLocked = isLocked(team.brand, 'website');
  if (websiteLocked) links = links.filter((l) => linkAllowedUnderWebsiteLock(l, website));
  if (website && (websiteLocked || !links.some((l) => l.linkType === 'website'))) {
    // the team's website comes first (id 0: not a counted link of the member)
    links = [{ id: 0, linkType: 'website', url: website, label: null }, ...links.filter((l) => !websiteLocked || l.linkType !== 'website')];
  }
  const logoUrl = pick('logoUrl', profile.logoUrl);
  return {
    ...profile,
    companyName: pick('companyName', profile.companyName),
    address: pick('address', profile.address),
    logoUrl,
    // the header's banner logo follows a locked logo: the team's logo, never the member's own banner
    bannerLogoUrl: isLocked(team.brand, 'logoUrl') ? logoUrl : profile.bannerLogoUrl,
    profileTemplate: pick('profileTemplate', profile.profileTemplate) ?? profile.profileTemplate,
    links,
    brand: { teamName: team.name, primaryColor: team.brand.primaryColor, accentColor: team.brand.accentColor },
  };
}
