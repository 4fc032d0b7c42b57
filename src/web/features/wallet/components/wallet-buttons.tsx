import { Wallet, WalletCards } from 'lucide-react';
import { Card } from '#web/components/ui/card';
import { buttonVariants } from '#web/components/ui/button';
import { errorMessage } from '#web/lib/api';
import { cn } from '#web/lib/utils';
import { APPLE_PASS_URL, useGoogleWalletLink, useWalletStatus } from '#web/features/wallet/api';

/** Our own wallet button look (no badge images from Apple or Google): dark, full width on a phone. */
const WALLET_BUTTON = cn(buttonVariants({ size: 'lg' }), 'w-full border border-white/25 bg-black px-5 text-white hover:bg-black/85 sm:w-auto');

/**
 * "Add to Apple Wallet" and "Save to Google Wallet" for the owner's digital profile (issue 23). Each
 * shows only when the server has that wallet set up and the owner has a profile; with neither,
 * nothing renders. Apple's is a plain link to the signed pass (Safari on iPhone opens it in Wallet,
 * other browsers download it); Google's opens Google's save page in a new tab.
 */
export function WalletButtons() {
  const status = useWalletStatus();
  const google = useGoogleWalletLink(!!status.data?.google);
  if (!status.data?.apple && !status.data?.google) return null;
  const googleUrl = google.data?.url;
  return (
    <Card className="mt-6 space-y-3 p-6" data-testid="wallet-buttons">
      <div className="space-y-1">
        <h2 className="text-lg font-semibold">Add your card to your phone&apos;s wallet</h2>
        <p className="text-sm text-muted-foreground">Your name, title and the QR code of your profile, always at hand to show or share.</p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {status.data.apple ? (
          <a href={APPLE_PASS_URL} className={WALLET_BUTTON}>
            <Wallet aria-hidden="true" />
            Add to Apple Wallet
          </a>
        ) : null}
        {status.data.google ? (
          googleUrl ? (
            <a href={googleUrl} target="_blank" rel="noopener noreferrer" className={WALLET_BUTTON}>
              <WalletCards aria-hidden="true" />
              Save to Google Wallet
            </a>
          ) : (
            <button type="button" disabled className={WALLET_BUTTON}>
              <WalletCards aria-hidden="true" />
              Save to Google Wallet
            </button>
          )
        ) : null}
      </div>
      {google.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(google.error, 'The Google Wallet link could not be made. Please reload the page.')}
        </p>
      ) : null}
    </Card>
  );
}
