import { useState, type FormEvent } from 'react';
import { PasswordChangeBody } from '#shared/schemas/account';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField } from '#web/components/ui/input';
import { useChangePassword } from '#web/features/account/api';
import { validate } from '#web/features/account/validate';
import { PasswordInput, ariaFor } from './password-input';
import { PasswordStrength } from '#web/features/auth/password-strength';
import { useAuth } from '#web/features/auth/use-auth';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordForm() {
  const change = useChangePassword();
  const { user } = useAuth();
  const [v, setV] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) => setV((s) => ({ ...s, [k]: e.target.value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const checked = validate(PasswordChangeBody, v);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    try {
      const res = await change.mutateAsync(checked.data);
      setV(EMPTY);
      toast({ title: 'Password changed', description: res.message });
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({ title: 'Password not changed', description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Password</h2>
        </CardTitle>
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
