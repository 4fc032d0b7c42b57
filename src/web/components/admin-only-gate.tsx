import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getAccountTwoFactor } from '#shared/contracts/auth';
import { endpointQuery } from '#web/lib/endpoint';
import { Link, useLocation } from 'react-router';
import { ShieldAlert } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { PageSpinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/lib/session/use-auth';

export interface AdminOnlyGateProps {
  children: ReactNode;
  /** `data-testid` of the refusal card. */
  refusedTestId: string;
  /** Explanation shown to a signed-in user who is not an admin. */
  notAdminMessage: string;
  /** Explanation shown to a visitor who is not signed in. */
  signedOutMessage: string;
}

/** Shows its children to admins only; everyone else gets a clear message (the server refuses them too). */
export function AdminOnlyGate({ children, refusedTestId, notAdminMessage, signedOutMessage }: AdminOnlyGateProps) {
  const { user, isLoading, isAdmin } = useAuth();
  const location = useLocation();
  // STAFF_TWO_FACTOR=required (issue 39): no staff page until this session has used a second factor
  const twoFactor = useQuery({ ...endpointQuery(getAccountTwoFactor), enabled: isAdmin });
  if (isLoading || (isAdmin && twoFactor.isLoading)) return <PageSpinner />;
  if (isAdmin && twoFactor.data?.staffSetupRequired) {
    return (
      <Card className="mx-auto max-w-lg p-8 text-center" role="alert" data-testid="staff-two-factor-required">
        <ShieldAlert className="mx-auto mb-3 size-10 text-gold" aria-hidden="true" />
        <h2 className="text-xl font-semibold">Set up two-factor sign-in</h2>
        <p className="mt-2 text-sm text-muted-foreground">
          Staff accounts need a second factor: an authenticator app or a passkey. Set one up in your account settings (or sign in again with the one you have), then come back.
        </p>
        <Button asChild className="mt-4">
          <Link to="/account#security">Go to sign-in security</Link>
        </Button>
      </Card>
    );
  }
  if (isAdmin) return <>{children}</>;
  return (
    <Card className="mx-auto max-w-lg p-8 text-center" role="alert" data-testid={refusedTestId}>
      <ShieldAlert className="mx-auto mb-3 size-10 text-gold" aria-hidden="true" />
      <h2 className="text-xl font-semibold">{user ? 'Admins only' : 'Authentication Required'}</h2>
      <p className="mt-2 text-sm text-muted-foreground">{user ? notAdminMessage : signedOutMessage}</p>
      {!user ? (
        <Button asChild className="mt-4">
          <Link to="/login" state={{ from: location.pathname + location.search }}>
            Sign In
          </Link>
        </Button>
      ) : null}
    </Card>
  );
}
