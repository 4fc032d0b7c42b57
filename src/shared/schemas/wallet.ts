import { z } from 'zod';
import { binaryFile } from './common';

/**
 * Wallet passes of the owner's digital profile (issue 23, decision 23-03): an Apple Wallet pass
 * (.pkpass) and a Google Wallet "save" link. Each wallet is offered only when the server has its
 * settings and the signed-in user has a profile.
 */

/** GET /api/wallet: which buttons the signed-in owner sees. */
export const WalletGetResponse = z.strictObject({
  apple: z.boolean(),
  google: z.boolean(),
});
export type WalletGetResponse = z.infer<typeof WalletGetResponse>;

/** GET /api/wallet/apple.pkpass: the signed pass of the owner's own profile. */
export const WalletApplePassGetResponse = binaryFile('application/vnd.apple.pkpass (attachment)');

/** GET /api/wallet/google: the owner's "Save to Google Wallet" link (a signed JWT in the URL). */
export const WalletGoogleLinkGetResponse = z.strictObject({
  url: z.url(),
});
export type WalletGoogleLinkGetResponse = z.infer<typeof WalletGoogleLinkGetResponse>;

/** Where the Google Wallet link leads: `https://pay.google.com/gp/v/save/<jwt>`. */
export const GOOGLE_WALLET_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/** Messages the wallet routes answer with (404 when a wallet is not set up or there is no profile). */
export const WALLET_MESSAGES = {
  appleOff: 'Apple Wallet passes are not set up on this server',
  googleOff: 'Google Wallet passes are not set up on this server',
  noProfile: 'Create your digital profile first',
  rateLimited: 'Too many wallet passes requested. Please try again in a minute.',
} as const;

/** Downloads per user and minute (each pass is signed on the worker pool). */
export const WALLET_RATE_LIMIT = { limit: 20, windowSeconds: 60 } as const;
