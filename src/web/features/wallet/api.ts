import { useQuery } from '@tanstack/react-query';
import { getWallet, getWalletApplePkpass, getWalletGoogle } from '#shared/contracts/wallet';
import { endpointHref, endpointQuery } from '#web/lib/endpoint';

/** The owner's pass download (a plain link: Safari on iPhone hands a .pkpass answer to Wallet). */
export const APPLE_PASS_URL = endpointHref(getWalletApplePkpass);

/** Which wallet buttons to show: { apple, google }. */
export function useWalletStatus() {
  return useQuery({ ...endpointQuery(getWallet), staleTime: 0 });
}

/** The "Save to Google Wallet" link, asked for again each time the buttons mount (the profile may have changed). */
export function useGoogleWalletLink(enabled: boolean) {
  return useQuery({ ...endpointQuery(getWalletGoogle), enabled, staleTime: 0, refetchOnMount: 'always' });
}
