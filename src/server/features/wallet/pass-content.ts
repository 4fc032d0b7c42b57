import { BUSINESS } from '#shared/catalogue';
import { LINK_TYPE_LABELS, type ProfileLayout, type PublicProfile } from '#shared/schemas/profile';
import { formatPhone } from '#shared/profile/phone';

/**
 * What a wallet pass of a digital profile shows (issue 23, decision 23-03), for both wallets:
 * the name first, then job title and company, the QR code of the public profile URL, and the
 * profile's colour (the team's brand colour, else its layout's). Pure: no keys, no I/O.
 */

/** The profile layouts' main colour (their Save Contact button), white text reads on each. */
const LAYOUT_COLORS: Record<ProfileLayout, string> = {
  classic: '#1d4ed8',
  modern: '#6d28d9',
  minimal: '#111827',
  creative: '#c2410c',
  corporate: '#1f2937',
};

/** The pass background: the team's brand colour (checked readable with white) or the layout's. */
export function passColor(profile: PublicProfile): string {
  return profile.brand?.primaryColor ?? LAYOUT_COLORS[profile.profileTemplate] ?? LAYOUT_COLORS.classic;
}

function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** One line of text for a pass field (wallets show no newlines in front fields). */
function oneLine(v: string | null | undefined): string {
  return (v ?? '').replace(/\s+/g, ' ').trim();
}

export interface PassField {
  key: string;
  label: string;
  value: string;
}

export interface ApplePassContent {
  serialNumber: string;
  description: string;
  organizationName: string;
  logoText: string;
  backgroundColor: string;
  foregroundColor: string;
  labelColor: string;
  primaryFields: PassField[];
  secondaryFields: PassField[];
  backFields: PassField[];
  barcodeMessage: string;
  barcodeAltText: string;
}

/** The Apple pass's pass.json content (the generic style); the serial number is the profile id. */
export function applePassContent(profile: PublicProfile, profileUrl: string): ApplePassContent {
  const name = oneLine(profile.fullName) || 'My profile';
  const secondary: PassField[] = [];
  if (oneLine(profile.jobTitle)) secondary.push({ key: 'title', label: 'Title', value: oneLine(profile.jobTitle) });
  if (oneLine(profile.companyName)) secondary.push({ key: 'company', label: 'Company', value: oneLine(profile.companyName) });
  const back: PassField[] = [{ key: 'profile', label: 'Digital profile', value: profileUrl }];
  if (oneLine(profile.email)) back.push({ key: 'email', label: 'Email', value: oneLine(profile.email) });
  if (oneLine(profile.phoneNumber)) back.push({ key: 'phone', label: 'Phone', value: formatPhone(oneLine(profile.phoneNumber)) });
  if (oneLine(profile.address)) back.push({ key: 'address', label: 'Address', value: oneLine(profile.address) });
  for (const l of profile.links) back.push({ key: `link-${l.id}`, label: LINK_TYPE_LABELS[l.linkType] ?? 'Link', value: l.url });
  back.push({ key: 'by', label: 'Digital business card', value: `${BUSINESS.name} — scan the code to open the profile` });
  return {
    serialNumber: profile.id,
    description: `${name} — digital business card`,
    // who issued and signed the pass (Wallet shows it with notifications)
    organizationName: BUSINESS.name,
    logoText: oneLine(profile.companyName) || BUSINESS.name,
    backgroundColor: rgb(passColor(profile)),
    foregroundColor: 'rgb(255, 255, 255)',
    labelColor: 'rgb(229, 231, 235)',
    primaryFields: [{ key: 'name', label: 'Name', value: name }],
    secondaryFields: secondary,
    backFields: back,
    barcodeMessage: profileUrl,
    barcodeAltText: 'Scan to open my profile',
  };
}

/**
 * The profile photo as an address Google can fetch itself: only when the site is served over https
 * and the photo is one of our stored files; otherwise null (the pass goes without it).
 */
export function publicPhotoUrl(origin: string, photo: string | null): string | null {
  return origin.startsWith('https://') && photo?.startsWith('/files/') ? origin.replace(/\/+$/, '') + photo : null;
}

/** A Google Wallet localized string (one language). */
function localized(value: string) {
  return { defaultValue: { language: 'en-US', value } };
}

/** Google Wallet object and class ids: `<issuerId>.<suffix>`, the suffix of word characters, dots and dashes. */
export function googleIds(issuerId: string, profileId: string): { classId: string; objectId: string } {
  const safe = profileId.replace(/[^\w.-]/g, '_');
  return { classId: `${issuerId}.digital_profile`, objectId: `${issuerId}.profile_${safe}` };
}

/** At most `max` characters (code points), with an ellipsis when cut. */
function cut(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length <= max ? s : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}

/**
 * The generic object the "Save to Google Wallet" JWT carries. Google fetches images itself, so
 * the photo goes in only when the site is served over https (a public URL); otherwise it is left out.
 * Each value goes in once (issue 36: the title and company were also repeated in text modules, and
 * the save link went past Google's 1,800 characters): company as the card title, name as the header,
 * job title as the subheader, the profile address once (the QR code; the links module repeated it);
 * `maxField` shortens the three when the link must be shorter.
 */
export function googleGenericObject(profile: PublicProfile, profileUrl: string, issuerId: string, photoUrl: string | null, maxField = 100) {
  const { classId, objectId } = googleIds(issuerId, profile.id);
  const name = cut(oneLine(profile.fullName) || 'My profile', maxField);
  const title = cut(oneLine(profile.jobTitle), maxField);
  const company = cut(oneLine(profile.companyName), maxField);
  return {
    id: objectId,
    classId,
    state: 'ACTIVE',
    cardTitle: localized(company || BUSINESS.name),
    header: localized(name),
    ...(title ? { subheader: localized(title) } : {}),
    barcode: { type: 'QR_CODE', value: profileUrl },
    hexBackgroundColor: passColor(profile),
    ...(photoUrl ? { logo: { sourceUri: { uri: photoUrl } } } : {}),
  };
}
