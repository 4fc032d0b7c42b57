import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isSigningOut, useAuth } from '#web/lib/session/use-auth';
import { PageSpinner } from '#web/components/ui/spinner';

/** Renders children for a signed-in user; sends everyone else to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading } = useAuth();
  const location = useLocation();
  // signing out: the home page is on its way; this page is not the one to redirect
  if (isLoading || (!user && isSigningOut())) return <PageSpinner />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}
