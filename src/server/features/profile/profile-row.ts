import type { profileLinks, profiles } from '#server/db/schema/profile';
import { storedPhone, storedTelUrl } from '#shared/profile/phone';
import { DEFAULT_PROFILE_LAYOUT, PROFILE_LAYOUTS, type LinkType, type Profile, type ProfileLayout, type ProfileLink, type PublicProfile } from '#shared/schemas/profile';

export type ProfileRow = typeof profiles.$inferSelect;
export type LinkRow = typeof profileLinks.$inferSelect;

/**
 * The profile row -> API shape mapping, written once: the public page's fields (without a team's
 * brand). Phone numbers saved before they were stored in E.164 (decision 37-09) are read so here
 * (the number, and a phone link's `tel:`), when they can be; one that cannot is answered as saved.
 */
export function toPublicProfile(row: ProfileRow, links: LinkRow[]): PublicProfile {
  return {
    id: row.id,
    handle: row.handle,
    fullName: row.fullName,
    jobTitle: row.jobTitle,
    email: row.email,
    phoneNumber: storedPhone(row.phoneNumber),
    address: row.address,
    companyName: row.companyName,
    profileTemplate: (PROFILE_LAYOUTS as readonly string[]).includes(row.profileTemplate) ? (row.profileTemplate as ProfileLayout) : DEFAULT_PROFILE_LAYOUT,
    customPhotoUrl: row.customPhotoUrl,
    logoUrl: row.logoUrl,
    bannerLogoUrl: row.bannerLogoUrl,
    links: links.map(toLink),
  };
}

/** The owner's profile: the public fields and the card's design. */
export function toProfile(row: ProfileRow, links: LinkRow[]): Profile {
  const { links: mapped, ...fields } = toPublicProfile(row, links);
  return { ...fields, templateId: row.templateId, cardType: row.cardType, links: mapped, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

function toLink(l: LinkRow): ProfileLink {
  return { id: l.id, linkType: l.linkType as LinkType, url: l.linkType === 'phone' ? storedTelUrl(l.url) : l.url, label: l.label };
}
