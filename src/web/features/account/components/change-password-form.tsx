import { useState, type FormEvent } from 'react';
import { PasswordChangeBody } from '#shared/schemas/account';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField } from '#web/components/ui/input';
import { useChangePassword } from '#web/features/account/api';
import { validate } from '#web/features/account/validate';
import { PasswordInput, ariaFor } from '#web/components/password-input';
import { PasswordStrength } from '#web/components/password-strength';
import { useAuth } from '#web/lib/session/use-auth';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };
type TextField = keyof typeof EMPTY;

export function ChangePasswordForm() {
  const change = useChangePassword();
  const { user } = useAuth();
  const [v, setV] = useState(EMPTY);
  // on by default (issue 33): whoever changes a password they suspect leaked ends the access made with it
  const [revokeAccess, setRevokeAccess] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: TextField) => (e: React.ChangeEvent<HTMLInputElement>) => setV((s) => ({ ...s, [k]: e.target.value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const checked = validate(PasswordChangeBody, { ...v, revokeAccess });
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    try {
      const res = await change.mutateAsync(checked.data);
      setV(EMPTY);
      setRevokeAccess(true);
      toast({ title: 'Password changed', description: res.message });
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({ title: 'Password not changed', description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Password</CardTitle>
        <CardDescription>After a change, every other device signed in to your account is signed out.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-3" aria-label="Change password">
          <FormField id="cp-currentPassword" label="Current password" required error={errors.currentPassword}>
            <PasswordInput id="cp-currentPassword" autoComplete="current-password" value={v.currentPassword} onChange={set('currentPassword')} {...ariaFor('cp-currentPassword', errors.currentPassword)} />
          </FormField>
          <FormField id="cp-newPassword" label="New password" required error={errors.newPassword} hint="At least 6 characters.">
            <PasswordInput id="cp-newPassword" autoComplete="new-password" value={v.newPassword} onChange={set('newPassword')} {...ariaFor('cp-newPassword', errors.newPassword)} />
            <PasswordStrength password={v.newPassword} userInputs={user ? [user.email, user.username, user.firstName, user.lastName] : []} />
          </FormField>
          <FormField id="cp-confirmPassword" label="Confirm new password" required error={errors.confirmPassword}>
            <PasswordInput id="cp-confirmPassword" autoComplete="new-password" value={v.confirmPassword} onChange={set('confirmPassword')} {...ariaFor('cp-confirmPassword', errors.confirmPassword)} />
          </FormField>
          <label className="flex items-start gap-2 text-sm sm:col-span-3">
            <input id="cp-revokeAccess" type="checkbox" className="mt-0.5 size-4 shrink-0" checked={revokeAccess} onChange={(e) => setRevokeAccess(e.target.checked)} />
            <span>Also revoke every API token and disable every webhook endpoint of my account (recommended if someone else may have known the password)</span>
          </label>
          <div className="sm:col-span-3">
            <Button type="submit" variant="gold" disabled={change.isPending}>
              {change.isPending ? 'Saving...' : 'Change password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
