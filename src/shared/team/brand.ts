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
 * The member's public profile as visitors see it under the team's brand: locked fields show the
 * team's value, empty ones are filled from it, and the page takes the team's colours.
 */
export function applyBrand(profile: PublicProfile, team: TeamBrandSource): PublicProfile {
  const pick = <T,>(field: LockableField, own: T | null): T | null => {
    const teamValue = teamValueOf(team, field) as T | null;
    if (isLocked(team.brand, field)) return teamValue ?? own;
    return own || teamValue;
  };
  let links = profile.links;
  const website = team.website;
  if (website && (isLocked(team.brand, 'website') || !links.some((l) => l.linkType === 'website'))) {
    // the team's website comes first (id 0: not a counted link of the member)
    links = [{ id: 0, linkType: 'website', url: website }, ...links.filter((l) => !isLocked(team.brand, 'website') || l.linkType !== 'website')];
  }
  return {
    ...profile,
    companyName: pick('companyName', profile.companyName),
    address: pick('address', profile.address),
    logoUrl: pick('logoUrl', profile.logoUrl),
    profileTemplate: pick('profileTemplate', profile.profileTemplate) ?? profile.profileTemplate,
    links,
    brand: { teamName: team.name, primaryColor: team.brand.primaryColor, accentColor: team.brand.accentColor },
  };
}
