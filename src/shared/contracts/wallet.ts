import { defineEndpoint } from './endpoint';
import { WalletApplePassGetResponse, WalletGetResponse, WalletGoogleLinkGetResponse } from '#shared/schemas/wallet';

export const getWallet = defineEndpoint({
  method: 'GET',
  path: '/api/wallet',
  access: 'user',
  responses: { 200: WalletGetResponse },
});

export const getWalletApplePkpass = defineEndpoint({
  method: 'GET',
  path: '/api/wallet/apple.pkpass',
  access: 'user',
  responses: { 200: WalletApplePassGetResponse },
});

export const getWalletGoogle = defineEndpoint({
  method: 'GET',
  path: '/api/wallet/google',
  access: 'user',
  responses: { 200: WalletGoogleLinkGetResponse },
});
