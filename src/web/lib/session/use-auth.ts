import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { getAuthSession, getAuthUser, postAuthLogout } from '#shared/contracts/auth';
import { errorMessage } from '#web/lib/api';
import { callEndpoint, endpointKey } from '#web/lib/endpoint';
import { toast } from '#web/lib/toast';
import { useHydrated } from '#web/lib/use-hydrated';

export const AUTH_USER_KEY = endpointKey(getAuthUser);

/**
 * Signed in when /api/auth/session answers a user; `{ user: null }` means signed out. Asked there
 * rather than /api/auth/user, whose 401 for visitors the browser logs as a console error on every page.
 */
export function useAuth() {
  const q = useQuery({ queryKey: AUTH_USER_KEY, queryFn: () => callEndpoint(getAuthSession).then((s) => s.user) });
  // a prerendered page shows the session as loading: hydrate against that, whenever the answer comes
  const hydrated = useHydrated();
  const user = hydrated ? (q.data ?? null) : null;
  return { user, isLoading: !hydrated || q.isLoading, isAuthenticated: !!user, isAdmin: user?.role === 'admin' };
}

/**
 * Set from a successful sign-out until the home page shows. The page the user signed out on stays on
 * screen while the home page's code loads (a navigation waits for it), and it sees the user gone:
 * a signed-in-only page must then wait, not send the browser to the sign-in page (on a busy phone
 * that redirect won the race and the browser landed on /login).
 */
let signingOut = false;
export function isSigningOut(): boolean {
  return signingOut;
}
/** The layout tells it where the browser is: the sign-out is over once the home page shows. */
export function useSignOutLanded(pathname: string): void {
  useEffect(() => {
    if (pathname === '/') signingOut = false;
  }, [pathname]);
}

export function useLogout() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => callEndpoint(postAuthLogout),
    onSuccess: async () => {
      // Home first, then forget the user: cleared first, a signed-in-only page (/profile,
      // /dashboard) would send the visitor to /login while the home page's code still loads.
      // (on the home page already there is no race, and nothing would end the flag)
      signingOut = window.location.pathname !== '/';
      await navigate('/');
      qc.setQueryData(AUTH_USER_KEY, null);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== AUTH_USER_KEY[0] });
      toast({ title: 'Logged out successfully', description: 'You have been signed out of your account.' });
    },
    onError: (err) => {
      toast({ title: 'Logout failed', description: errorMessage(err, 'Failed to sign out. Please try again.'), variant: 'destructive' });
    },
  });
}
