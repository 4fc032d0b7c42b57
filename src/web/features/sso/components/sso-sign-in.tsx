import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { getAuthSsoStart } from '#shared/contracts/sso';
import { SSO_ERRORS, type SsoErrorCode } from '#shared/sso-errors';
import { buttonVariants } from '#web/components/ui/button';
import { endpointHref } from '#web/lib/endpoint';
import { cn } from '#web/lib/utils';
import { discoverSso } from '#web/features/sso/api';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/**
 * "Continue with SSO" on the sign-in page (decision 39-03): once the typed address belongs to a
 * domain whose company signs in through its identity provider, a link starts that sign-in. Also
 * says why an SSO sign-in came back here (`?sso_error=`).
 */
export function SsoSignIn({ email, returnTo }: { email: string; returnTo?: string }) {
  const [params] = useSearchParams();
  const [sso, setSso] = useState<string | null>(null);
  const code = params.get('sso_error');
  const problem = code && code in SSO_ERRORS ? SSO_ERRORS[code as SsoErrorCode] : null;

  useEffect(() => {
    const e = email.trim();
    if (!EMAIL.test(e)) {
      setSso(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      discoverSso(e)
        .then((r) => live && setSso(r.sso ? e : null))
        .catch(() => live && setSso(null));
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [email]);

  return (
    <>
      {problem ? (
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="sso-error">
          {problem}
        </p>
      ) : null}
      {sso ? (
        <a className={cn(buttonVariants({ variant: 'default' }), 'w-full')} href={endpointHref(getAuthSsoStart, { query: { email: sso, returnTo } })} data-testid="sso-continue">
          Continue with SSO
        </a>
      ) : null}
    </>
  );
}
