import type { AppContext } from '#server/context';
import { attachmentDisposition } from '#server/http/download-name';
import { notFound } from '#server/http/http-errors';
import { keyFromFileUrl } from '#server/infra/files';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import { findProfileRowByUser, loadPublicProfile } from '#server/features/profile/public-api';
import { publicProfileUrl } from '#shared/routes';
import { WALLET_MESSAGES, type WalletGetResponse } from '#shared/schemas/wallet';
import type { PublicProfile } from '#shared/schemas/profile';
import { googleSaveUrl } from './google-wallet';
import { applePassContent, publicPhotoUrl } from './pass-content';
import type { WalletKeys } from './wallet.config';
import type { ApplePassTaskInput } from './wallet.task';

/**
 * Wallet passes of the signed-in owner's own profile (issue 23, decision 23-03). The pass shows the
 * profile as visitors see it (the team's brand applied), read through the profile feature's cache.
 */

/** Which wallet buttons the owner sees: a wallet set up on the server and a profile to put in it. */
export async function walletStatus(ctx: AppContext, keys: WalletKeys, userId: string): Promise<WalletGetResponse> {
  if (!keys.apple && !keys.google) return { apple: false, google: false };
  const hasProfile = !!(await findProfileRowByUser(ctx.db, userId));
  return { apple: hasProfile && !!keys.apple, google: hasProfile && !!keys.google };
}

async function ownProfile(ctx: AppContext, userId: string): Promise<PublicProfile> {
  const row = await findProfileRowByUser(ctx.db, userId);
  const entry = row ? await loadPublicProfile(ctx, row.id) : null;
  if (!entry) throw notFound(WALLET_MESSAGES.noProfile);
  return entry.profile;
}

async function storedPhoto(ctx: AppContext, url: string | null): Promise<Buffer | null> {
  const key = keyFromFileUrl(url);
  if (!key) return null;
  try {
    return (await ctx.storage.get(key))?.data ?? null;
  } catch {
    // storage hiccup: the pass goes without the photo
    return null;
  }
}

/** "{name}.pkpass" made safe for Content-Disposition (ASCII fallback plus the UTF-8 form). */
export function passDisposition(fullName: string): string {
  return attachmentDisposition(fullName, 'pkpass', 'profile');
}

/** The signed .pkpass of the owner's profile (built and signed on the worker pool). */
export async function applePass(ctx: AppContext, keys: WalletKeys, userId: string, origin: string): Promise<{ data: Buffer; fullName: string }> {
  if (!keys.apple) throw notFound(WALLET_MESSAGES.appleOff);
  const profile = await ownProfile(ctx, userId);
  const input: ApplePassTaskInput = {
    content: applePassContent(profile, publicProfileUrl(origin, profile.id)),
    photo: await storedPhoto(ctx, profile.customPhotoUrl),
    keys: keys.apple,
  };
  const data = await runTask<Uint8Array>('visitor', 'applePass', input);
  return { data: asBuffer(data), fullName: profile.fullName };
}

/** The owner's "Save to Google Wallet" link. */
export async function googleWalletLink(ctx: AppContext, keys: WalletKeys, userId: string, origin: string): Promise<string> {
  if (!keys.google) throw notFound(WALLET_MESSAGES.googleOff);
  const profile = await ownProfile(ctx, userId);
  const photoUrl = publicPhotoUrl(origin, profile.customPhotoUrl);
  return googleSaveUrl(keys.google, { profile, profileUrl: publicProfileUrl(origin, profile.id), origin: new URL(origin).origin, photoUrl });
}
