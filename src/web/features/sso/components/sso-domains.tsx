import { useId, useState, type FormEvent } from 'react';
import { CheckCircle2 } from 'lucide-react';
import type { SsoDomain } from '#shared/schemas/sso';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input } from '#web/components/ui/input';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useAddDomain, useRemoveDomain, useVerifyDomain } from '#web/features/sso/api';
import { CopyValue } from './copy-value';

function DomainRow({ d }: { d: SsoDomain }) {
  const verify = useVerifyDomain();
  const remove = useRemoveDomain();
  return (
    <li className="space-y-2 p-3" data-testid={`sso-domain-${d.domain}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">{d.domain}</span>
        {d.verifiedAt ? (
          <span className="inline-flex items-center gap-1 text-sm text-green-700 dark:text-green-400">
            <CheckCircle2 className="size-4" aria-hidden="true" /> Verified
          </span>
        ) : (
          <span className="text-sm text-muted-foreground">Not verified yet</span>
        )}
      </div>
      {d.verifiedAt ? null : (
        <div className="space-y-2 text-sm">
          <p>Add this TXT record at your DNS host, then press Verify (DNS changes can take a while to appear):</p>
          <CopyValue label={`Name for ${d.domain}`} value={d.txtName} testId="sso-txt-name" />
          <CopyValue label={`Value for ${d.domain}`} value={d.txtValue} testId="sso-txt-value" />
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        {d.verifiedAt ? null : (
          <Button
            type="button"
            size="sm"
            disabled={verify.isPending}
            onClick={() =>
              verify.mutate(d.id, {
                onSuccess: () => toast({ title: `${d.domain} is verified` }),
                onError: (err) => toast({ title: 'Not verified', description: errorMessage(err), variant: 'destructive' }),
              })
            }
          >
            {verify.isPending ? 'Looking up…' : `Verify ${d.domain}`}
          </Button>
        )}
        <Button type="button" size="sm" variant="outline" disabled={remove.isPending} onClick={() => remove.mutate(d.id, { onError: (err) => toast({ title: 'Not removed', description: errorMessage(err), variant: 'destructive' }) })}>
          Remove {d.domain}
        </Button>
      </div>
    </li>
  );
}

/** The company's e-mail domains, proven by a DNS TXT record (decision 39-03). */
export function SsoDomains({ domains }: { domains: SsoDomain[] }) {
  const add = useAddDomain();
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    add.mutate(domain, {
      onSuccess: () => setDomain(''),
      onError: (err) => setError(fieldErrors(err).domain ?? errorMessage(err)),
    });
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Company e-mail domains</CardTitle>
        <CardDescription>People whose address is at a verified domain sign in through your identity provider. Prove each domain with a DNS TXT record.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {domains.length ? (
          <ul className="divide-y rounded-md border" data-testid="sso-domains">
            {domains.map((d) => (
              <DomainRow key={d.id} d={d} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No domain yet.</p>
        )}
        <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2" aria-label="Add a domain">
          <FormField id={id} label="Domain" error={error} className="min-w-60 flex-1">
            <Input id={id} placeholder="example.com" value={domain} onChange={(e) => setDomain(e.target.value)} aria-invalid={!!error || undefined} />
          </FormField>
          <Button type="submit" disabled={add.isPending || !domain.trim()}>
            Add domain
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
