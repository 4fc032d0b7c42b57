import { useState } from 'react';
import { SSO_MESSAGES, type SsoConfig } from '#shared/schemas/sso';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Checkbox } from '#web/components/ui/checkbox';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useDisconnect, useRequireSso, useSsoConfig } from '#web/features/sso/api';
import { SamlConnectionForm } from '#web/features/sso/saml-connection-form';
import { SsoDomains } from './sso-domains';
import { OidcConnectionForm } from './oidc-connection-form';

/** Which identity provider: OpenID Connect or SAML 2.0 (one is active at a time). */
function Connection({ config }: { config: SsoConfig }) {
  const [kind, setKind] = useState<'oidc' | 'saml'>(config.kind ?? 'oidc');
  const disconnect = useDisconnect();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Identity provider</CardTitle>
        <CardDescription>
          {config.kind ? `Connected with ${config.kind === 'oidc' ? 'OpenID Connect' : 'SAML 2.0'}.` : 'Not connected yet.'} Microsoft Entra ID, Okta and Google Workspace offer both.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <fieldset className="flex flex-wrap gap-4">
          <legend className="sr-only">Protocol</legend>
          {(['oidc', 'saml'] as const).map((k) => (
            <label key={k} className="flex items-center gap-2">
              <input type="radio" name="sso-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
              {k === 'oidc' ? 'OpenID Connect' : 'SAML 2.0'}
            </label>
          ))}
        </fieldset>
        {kind === 'oidc' ? <OidcConnectionForm config={config} /> : <SamlConnectionForm />}
        {config.kind ? (
          <Button
            type="button"
            variant="outline"
            disabled={disconnect.isPending}
            onClick={() => disconnect.mutate(undefined, { onSuccess: () => toast({ title: 'Single sign-on disconnected' }), onError: (err) => toast({ title: 'Not disconnected', description: errorMessage(err), variant: 'destructive' }) })}
          >
            Disconnect the identity provider
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Require SSO: members lose the password; the owner and staff keep it with a second factor. */
function RequireSso({ config }: { config: SsoConfig }) {
  const set = useRequireSso();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Require single sign-on</CardTitle>
        <CardDescription>Members and everyone at your verified domains then sign in only through your identity provider. You keep your password with your second factor, for when the provider is down.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-2 text-sm">
        <label className="flex items-center gap-2">
          <Checkbox
            checked={config.requireSso}
            disabled={set.isPending || (!config.requireSso && !config.canRequire)}
            onCheckedChange={(c) => set.mutate(c === true, { onError: (err) => toast({ title: 'Not changed', description: errorMessage(err), variant: 'destructive' }) })}
            aria-label="Require single sign-on for the team"
          />
          Require single sign-on for the team
        </label>
        {!config.requireSso && !config.canRequire ? <p className="text-muted-foreground">{config.kind && config.domains.some((d) => d.verifiedAt) ? SSO_MESSAGES.requireNeedsFactor : SSO_MESSAGES.requireNeedsConnection}</p> : null}
      </CardContent>
    </Card>
  );
}

/** The team owner's "Single sign-on" tab (issue 39 item 3). */
export function SsoTab() {
  const { data, isLoading, error } = useSsoConfig();
  if (isLoading) return <Skeleton className="h-64 w-full" />;
  if (!data) return <p role="alert">{errorMessage(error, 'Single sign-on settings could not be loaded.')}</p>;
  return (
    <div className="space-y-6">
      <SsoDomains domains={data.domains} />
      <Connection config={data} />
      <RequireSso config={data} />
    </div>
  );
}
