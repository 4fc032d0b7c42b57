import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getTeamSso } from '#shared/contracts/sso';
import { deleteTeamSsoSaml, getTeamSsoSaml, putTeamSsoSaml } from '#shared/contracts/sso/saml';
import { Button } from '#web/components/ui/button';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { callEndpoint, endpointQuery } from '#web/lib/endpoint';
import { toast } from '#web/lib/toast';

/**
 * The SAML part of the team owner's single sign-on settings (issue 39 item 3, decision 39-04):
 * our side's addresses (and metadata file) to enter at the identity provider, and the IdP's
 * metadata, pasted or by address. Rendered by the SSO settings section.
 */

function Copyable({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <div className="font-medium">{label}</div>
      <code className="block break-all rounded bg-muted px-2 py-1" data-testid={testId}>
        {value}
      </code>
    </div>
  );
}

export function SamlConnectionForm() {
  const qc = useQueryClient();
  const { data, isLoading } = useQuery(endpointQuery(getTeamSsoSaml));
  const [source, setSource] = useState<'xml' | 'url'>('xml');
  const [xml, setXml] = useState('');
  const [url, setUrl] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const xmlId = useId();
  const urlId = useId();
  const onSaved = (d: Awaited<ReturnType<typeof callEndpoint<typeof getTeamSsoSaml>>>) => {
    qc.setQueryData(endpointQuery(getTeamSsoSaml).queryKey, d);
    // the SSO tab says which provider is active
    void qc.invalidateQueries({ queryKey: endpointQuery(getTeamSso).queryKey });
  };
  const save = useMutation({ mutationFn: (body: { metadataXml?: string; metadataUrl?: string }) => callEndpoint(putTeamSsoSaml, { body }), onSuccess: onSaved });
  const remove = useMutation({ mutationFn: () => callEndpoint(deleteTeamSsoSaml), onSuccess: onSaved });
  if (isLoading || !data) return <Skeleton className="h-40 w-full" />;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    const body = source === 'xml' ? { metadataXml: xml.trim() } : { metadataUrl: url.trim() };
    if (!(body.metadataXml ?? body.metadataUrl)) {
      setErrors(source === 'xml' ? { metadataXml: "Paste your identity provider's metadata XML" } : { metadataUrl: "Enter the address of your identity provider's metadata" });
      return;
    }
    save.mutate(body, {
      onSuccess: () => toast({ title: 'SAML connection saved' }),
      onError: (err) => {
        setErrors(fieldErrors(err));
        toast({ title: 'Not saved', description: errorMessage(err), variant: 'destructive' });
      },
    });
  };
  return (
    <section className="space-y-4 text-sm" aria-labelledby={`${xmlId}-h`}>
      <h3 id={`${xmlId}-h`} className="text-base font-semibold">
        SAML 2.0
      </h3>
      <div className="space-y-2">
        <p>At your identity provider (Entra ID: Enterprise application → Single sign-on → SAML; Okta: SAML 2.0 app), enter these, or upload our metadata file:</p>
        <Copyable label="Identifier (Entity ID / Audience URI)" value={data.sp.entityId} testId="saml-sp-entity-id" />
        <Copyable label="Reply URL (Assertion Consumer Service / Single sign-on URL)" value={data.sp.acsUrl} testId="saml-sp-acs-url" />
        <p>
          Name ID: the person&apos;s e-mail address.{' '}
          <a className="underline" href={data.sp.metadataUrl} download>
            Download our SP metadata
          </a>
        </p>
      </div>
      {data.idp ? (
        <div className="space-y-1 rounded-md border p-3" data-testid="saml-idp">
          <p>
            Connected to <span className="font-medium">{data.idp.entityId}</span> (sign-on at <code className="break-all">{data.idp.ssoUrl}</code>).
          </p>
          {data.idp.certificates.map((c) => (
            <p key={c.sha256} className="text-xs text-muted-foreground">
              Signing certificate {c.subject}, valid until {c.notAfter ? new Date(c.notAfter).toLocaleDateString('en-US') : 'unknown'}
            </p>
          ))}
          <Button type="button" size="sm" variant="outline" disabled={remove.isPending} onClick={() => remove.mutate(undefined, { onSuccess: () => toast({ title: 'SAML connection removed' }) })}>
            Remove SAML connection
          </Button>
        </div>
      ) : null}
      <form className="space-y-3" noValidate onSubmit={submit}>
        <fieldset className="flex gap-4">
          <legend className="sr-only">Where the metadata comes from</legend>
          <label className="flex items-center gap-1">
            <input type="radio" name="saml-source" checked={source === 'xml'} onChange={() => setSource('xml')} /> Paste the metadata XML
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" name="saml-source" checked={source === 'url'} onChange={() => setSource('url')} /> Metadata address (URL)
          </label>
        </fieldset>
        {source === 'xml' ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={xmlId} className="font-medium">
              Identity provider metadata (XML)
            </label>
            <textarea id={xmlId} className="min-h-32 rounded-md border bg-background p-2 font-mono text-xs" value={xml} onChange={(e) => setXml(e.target.value)} aria-invalid={errors.metadataXml ? true : undefined} />
            {errors.metadataXml ? <p className="text-xs text-red-700">{errors.metadataXml}</p> : null}
          </div>
        ) : (
          <div className="flex flex-col gap-1">
            <label htmlFor={urlId} className="font-medium">
              Identity provider metadata address
            </label>
            <Input id={urlId} type="url" placeholder="https://login.microsoftonline.com/…/federationmetadata.xml" value={url} onChange={(e) => setUrl(e.target.value)} aria-invalid={errors.metadataUrl ? true : undefined} />
            {errors.metadataUrl ? <p className="text-xs text-red-700">{errors.metadataUrl}</p> : null}
          </div>
        )}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : data.idp ? 'Replace SAML connection' : 'Save SAML connection'}
        </Button>
      </form>
    </section>
  );
}
