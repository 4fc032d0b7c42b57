import { useId, useState, type FormEvent } from 'react';
import type { SsoConfig } from '#shared/schemas/sso';
import { Button } from '#web/components/ui/button';
import { FormField, Input } from '#web/components/ui/input';
import { PasswordInput } from '#web/components/password-input';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useSaveOidc } from '#web/features/sso/api';
import { CopyValue } from './copy-value';

/** The OpenID Connect client: issuer, client ID and secret (the secret is never shown again; empty keeps it). */
export function OidcConnectionForm({ config }: { config: SsoConfig }) {
  const save = useSaveOidc();
  const [v, setV] = useState({ issuer: config.oidc?.issuer ?? '', clientId: config.oidc?.clientId ?? '', clientSecret: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = { issuer: useId(), clientId: useId(), clientSecret: useId() };
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    save.mutate(v, {
      onSuccess: () => {
        setV((s) => ({ ...s, clientSecret: '' }));
        toast({ title: 'OpenID Connect provider connected' });
      },
      onError: (err) => {
        setErrors(fieldErrors(err));
        toast({ title: 'Not connected', description: errorMessage(err), variant: 'destructive' });
      },
    });
  }
  const set = (k: keyof typeof v) => (e: React.ChangeEvent<HTMLInputElement>) => setV((s) => ({ ...s, [k]: e.target.value }));
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="OpenID Connect">
      <CopyValue label="Redirect URI (register it at your provider)" value={config.oidcRedirectUri} testId="sso-redirect-uri" />
      <FormField id={ids.issuer} label="Issuer URL" required error={errors.issuer} hint="For example https://login.microsoftonline.com/<tenant>/v2.0 or https://<org>.okta.com">
        <Input id={ids.issuer} inputMode="url" autoComplete="off" value={v.issuer} onChange={set('issuer')} aria-invalid={!!errors.issuer || undefined} />
      </FormField>
      <FormField id={ids.clientId} label="Client ID" required error={errors.clientId}>
        <Input id={ids.clientId} autoComplete="off" value={v.clientId} onChange={set('clientId')} aria-invalid={!!errors.clientId || undefined} />
      </FormField>
      <FormField id={ids.clientSecret} label="Client secret" error={errors.clientSecret} hint={config.oidc?.hasClientSecret ? 'A secret is stored. Leave empty to keep it.' : undefined}>
        <PasswordInput id={ids.clientSecret} autoComplete="off" value={v.clientSecret} onChange={set('clientSecret')} aria-invalid={!!errors.clientSecret || undefined} />
      </FormField>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Checking the issuer…' : 'Save OpenID Connect'}
      </Button>
    </form>
  );
}
