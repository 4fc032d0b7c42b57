import { defineEndpoint } from './endpoint';
import { WalletApplePassGetResponse, WalletGetResponse, WalletGoogleLinkGetResponse } from '#shared/schemas/wallet';

export const getWallet = defineEndpoint({
  method: 'GET',
  path: '/api/wallet',
  summary: 'Whether wallet passes are offered',
  access: 'user',
  responses: { 200: WalletGetResponse },
});

export const getWalletApplePkpass = defineEndpoint({
  method: 'GET',
  path: '/api/wallet/apple.pkpass',
  summary: 'Your profile as an Apple Wallet pass',
  access: 'user',
  responses: { 200: WalletApplePassGetResponse },
});

export const getWalletGoogle = defineEndpoint({
  method: 'GET',
  path: '/api/wallet/google',
  summary: 'Your profile as a Google Wallet pass (save link)',
  access: 'user',
  responses: { 200: WalletGoogleLinkGetResponse },
});
