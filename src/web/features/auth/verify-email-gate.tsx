import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { useAuth } from '#web/lib/session/use-auth';

const VerifyEmailBanner = lazy(() => import('./verify-email-banner'));

/**
 * Shows the "please verify your e-mail" banner to a signed-in account whose address is not verified
 * yet (issue 19). Renders nothing while the session loads (so the prerendered shell hydrates as is);
 * the banner itself is a separate chunk, loaded only when it is needed.
 */
export function VerifyEmailGate() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (!user || user.emailVerified || pathname === '/confirm-email') return null;
  return (
    <Suspense fallback={null}>
      <VerifyEmailBanner email={user.email} />
    </Suspense>
  );
}
