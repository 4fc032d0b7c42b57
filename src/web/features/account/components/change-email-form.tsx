import { useState, type FormEvent } from 'react';
import { EmailChangeBody } from '#shared/schemas/account';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input } from '#web/components/ui/input';
import { useChangeEmail, type AccountInfo } from '#web/features/account/api';
import { validate } from '#web/features/account/validate';
import { PasswordInput, ariaFor } from '#web/components/password-input';

export function ChangeEmailForm({ account }: { account: AccountInfo }) {
  const change = useChangeEmail();
  const [v, setV] = useState({ newEmail: '', currentPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const checked = validate(EmailChangeBody, v);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    try {
      const res = await change.mutateAsync(checked.data);
      setV({ newEmail: '', currentPassword: '' });
      toast({ title: 'Check your new inbox', description: res.message });
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({ title: 'Email not changed', description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Email address</CardTitle>
        <CardDescription>
          You sign in with <span className="font-medium text-foreground" data-testid="account-email">{account.email}</span>. A new address takes
          effect once you open the confirmation link we send to it.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {account.pendingEmail ? (
          <p role="status" className="rounded-md border border-border bg-muted/40 p-3 text-sm" data-testid="pending-email">
            Waiting for confirmation: <span className="font-medium">{account.pendingEmail}</span>
          </p>
        ) : null}
        <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2" aria-label="Change email">
          <FormField id="ce-newEmail" label="New email" required error={errors.newEmail}>
            <Input
              id="ce-newEmail"
              type="email"
              autoComplete="email"
              value={v.newEmail}
              onChange={(e) => setV((s) => ({ ...s, newEmail: e.target.value }))}
              {...ariaFor('ce-newEmail', errors.newEmail)}
            />
          </FormField>
          <FormField id="ce-currentPassword" label="Current password" required error={errors.currentPassword}>
            <PasswordInput
              id="ce-currentPassword"
              autoComplete="current-password"
              value={v.currentPassword}
              onChange={(e) => setV((s) => ({ ...s, currentPassword: e.target.value }))}
              {...ariaFor('ce-currentPassword', errors.currentPassword)}
            />
          </FormField>
          <div className="sm:col-span-2">
            <Button type="submit" variant="gold" disabled={change.isPending}>
              {change.isPending ? 'Sending...' : 'Send confirmation link'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
