import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { useForgetAccount } from '#web/features/account/api';
import { CheckCircle2 } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { useNoIndex, usePageTitle } from '#web/lib/use-page-title';

/**
 * Where the browser goes once the account is deleted (issue 37, decision 37-09): a neutral page
 * that says what happened, not the sign-in page's "Welcome back". It shows the same to anyone.
 */
export default function AccountDeletedPage() {
  usePageTitle('Account deleted', 'Your Metal Cards NYC account has been deleted.');
  useNoIndex();
  const forget = useForgetAccount();
  const deletedNow = (useLocation().state as { accountDeleted?: boolean } | null)?.accountDeleted === true;
  useEffect(() => {
    // arriving from the deletion: the browser is signed out now that this page shows
    if (deletedNow) forget();
    // once, on arrival
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <CheckCircle2 aria-hidden="true" className="mx-auto size-10 text-green-600" />
      <h1 className="mt-4 text-3xl font-bold">Your account was deleted</h1>
      <p className="mt-4 text-muted-foreground">
        Your account, its profile, images, cards, the contacts people left you and its statistics are gone, and you are signed out. A printed card that pointed to your profile now
        says the profile is no longer available. Past orders stay in our books without your name or contact details. We sent a confirmation to your e-mail address.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild variant="outline">
          <Link to="/">Go to the home page</Link>
        </Button>
        <Button asChild variant="gold">
          <Link to="/signup">Create a new account</Link>
        </Button>
      </div>
    </section>
  );
}
