import { SignJWT } from 'jose';
import { GOOGLE_WALLET_SAVE_URL } from '#shared/schemas/wallet';
import type { GoogleWalletKeys } from './wallet.config';
import { googleGenericObject, googleIds } from './pass-content';

/**
 * "Save to Google Wallet" (issue 23): a JWT signed RS256 with the issuer's service account key,
 * carrying the generic class (Google creates it on first save) and the profile's generic object.
 * No call to Google's API is made: the link is the whole exchange. One RSA signature (node:crypto)
 * is about a millisecond, so it runs on the request thread.
 */
export async function googleSaveUrl(
  keys: GoogleWalletKeys,
  input: { profile: Parameters<typeof googleGenericObject>[0]; profileUrl: string; origin: string; photoUrl: string | null },
): Promise<string> {
  const { classId } = googleIds(keys.issuerId, input.profile.id);
  const sign = async (maxField: number, photoUrl: string | null) => {
    const object = googleGenericObject(input.profile, input.profileUrl, keys.issuerId, photoUrl, maxField);
    const jwt = await new SignJWT({ typ: 'savetowallet', origins: [input.origin], payload: { genericClasses: [{ id: classId }], genericObjects: [object] } })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(keys.clientEmail)
      .setAudience('google')
      .setIssuedAt()
      .sign(keys.privateKey);
    return GOOGLE_WALLET_SAVE_URL + jwt;
  };
  // Google's safe maximum for the link (issue 36). Fields in non-Latin scripts take 2-4 UTF-8 bytes
  // a character, so the longest allowed ones are shortened (with an ellipsis) until the link fits.
  let url = await sign(100, input.photoUrl);
  for (let max = 80; url.length > GOOGLE_SAVE_URL_MAX && max >= 10; max -= 10) url = await sign(max, input.photoUrl);
  if (url.length > GOOGLE_SAVE_URL_MAX) url = await sign(10, null);
  return url;
}

/** The longest "Save to Google Wallet" link browsers and Google accept safely. */
export const GOOGLE_SAVE_URL_MAX = 1800;
