import type { ReactNode } from 'react';
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
  if (isLoading) return <PageSpinner />;
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
