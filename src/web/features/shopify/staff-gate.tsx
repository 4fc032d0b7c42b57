import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { ShieldAlert } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { PageSpinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/features/auth/use-auth';

/** The store pages are for staff: others get a clear message (the server refuses their calls too). */
export function StaffGate({ children }: { children: ReactNode }) {
  const { user, isLoading, isAdmin } = useAuth();
  const location = useLocation();
  if (isLoading) return <PageSpinner />;
  if (isAdmin) return <>{children}</>;
  return (
    <Card className="mx-auto max-w-lg p-8 text-center" role="alert" data-testid="staff-refused">
      <ShieldAlert className="mx-auto mb-3 size-10 text-gold" aria-hidden="true" />
      <h2 className="text-xl font-semibold">{user ? 'Admins only' : 'Authentication Required'}</h2>
      <p className="mt-2 text-sm text-muted-foreground">
        {user
          ? 'The online-store pages are for staff. Ask an administrator to give your account the admin role.'
          : 'The online-store pages are for staff. Please sign in with an admin account.'}
      </p>
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
