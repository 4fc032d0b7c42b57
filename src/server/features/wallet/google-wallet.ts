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
  const object = googleGenericObject(input.profile, input.profileUrl, keys.issuerId, input.photoUrl);
  const { classId } = googleIds(keys.issuerId, input.profile.id);
  const jwt = await new SignJWT({
    typ: 'savetowallet',
    origins: [input.origin],
    payload: { genericClasses: [{ id: classId }], genericObjects: [object] },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(keys.clientEmail)
    .setAudience('google')
    .setIssuedAt()
    .sign(keys.privateKey);
  return GOOGLE_WALLET_SAVE_URL + jwt;
}
