import { publicProfileUrl } from '#shared/routes';
import type { CardData } from '#shared/templates/fields';
import type { CardLookInput } from '#shared/schemas/templates';
import { CARD_FINISHES, allowedAccent, allowedFont, type CardLook } from '#shared/templates/look';
import type { CardTypeId } from '#shared/catalogue';
import { formatPhone } from '#shared/profile/phone';
import type { AppContext, SessionUser } from '#server/context';
import { badRequest } from '#server/http/http-errors';
import { getProfileForUser } from '#server/features/profile/public-api';
import type { CardRenderInput } from './templates.service';

export const profileUrl = (baseUrl: string, profileId: string) => publicProfileUrl(baseUrl, profileId);

/**
 * What a signed-in user's card is filled with: their profile (with the first website and LinkedIn
 * links) and the QR code of their public profile. Without a profile: the account's name and
 * e-mail, and no QR code yet.
 */
export async function cardInputForUser(ctx: AppContext, user: SessionUser, baseUrl: string): Promise<CardRenderInput & { profileId: string | null }> {
  const profile = await getProfileForUser(ctx, user.id);
  if (!profile) {
    return {
      data: { fullName: `${user.firstName} ${user.lastName}`.trim() || user.username, email: user.email },
      qrUrl: null,
      logoUrl: null,
      profileId: null,
    };
  }
  const link = (type: string) => profile.links.find((l) => l.linkType === type)?.url ?? null;
  const data: CardData = {
    fullName: profile.fullName,
    jobTitle: profile.jobTitle,
    companyName: profile.companyName,
    email: profile.email,
    phoneNumber: profile.phoneNumber ? formatPhone(profile.phoneNumber) : null, // stored E.164, printed readable
    address: profile.address,
    website: link('website'),
    linkedinUrl: link('linkedin'),
  };
  return { data, qrUrl: profileUrl(baseUrl, profile.id), logoUrl: profile.logoUrl, profileId: profile.id };
}

/**
 * The look a card type can produce: the metal from the card type, an accent it can make (400 with
 * the field otherwise), the font and logo box as chosen.
 */
export function checkedLook(cardType: string, input: CardLookInput | null | undefined): CardLook {
  const look: CardLook = { cardType: cardType as CardTypeId };
  if (!input) return look;
  if (input.accent) {
    const ok = allowedAccent(cardType, input.accent);
    if (ok !== input.accent.toLowerCase()) {
      throw badRequest('This card type cannot produce this colour', { 'look.accent': `${CARD_FINISHES[cardType as CardTypeId]?.accentNote ?? 'Choose another colour.'}` });
    }
    look.accent = ok;
  }
  if (input.font) look.font = allowedFont(input.font);
  if (input.logoPosition) look.logoPosition = input.logoPosition;
  if (input.logoScale) look.logoScale = input.logoScale;
  return look;
}

/** The choices stored with a design (`customizations.look`), as the designer takes them back. */
export function lookInputOf(customizations: unknown): CardLookInput | null {
  const l = (customizations as { look?: CardLook } | null)?.look;
  if (!l || typeof l !== 'object') return null;
  return { accent: l.accent ?? null, font: l.font ?? null, logoPosition: l.logoPosition ?? null, logoScale: l.logoScale ?? null };
}
