import { useQuery } from '@tanstack/react-query';
import type { WalletGetResponse, WalletGoogleLinkGetResponse } from '#shared/schemas/wallet';

/** The owner's pass download (a plain link: Safari on iPhone hands a .pkpass answer to Wallet). */
export const APPLE_PASS_URL = '/api/wallet/apple.pkpass';

/** Which wallet buttons to show: { apple, google }. */
export function useWalletStatus() {
  return useQuery<WalletGetResponse>({ queryKey: ['/api/wallet'], staleTime: 0 });
}

/** The "Save to Google Wallet" link, asked for again each time the buttons mount (the profile may have changed). */
export function useGoogleWalletLink(enabled: boolean) {
  return useQuery<WalletGoogleLinkGetResponse>({ queryKey: ['/api/wallet/google'], enabled, staleTime: 0, refetchOnMount: 'always' });
}
