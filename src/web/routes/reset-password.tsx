import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ACCOUNT_MESSAGES, PasswordResetBody } from '#shared/schemas/account';
import { ApiError, errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { usePageTitle } from '#web/lib/use-page-title';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField } from '#web/components/ui/input';
import { useResetPassword } from '#web/features/account/api';
import { PasswordInput, ariaFor } from '#web/components/password-input';
import { PasswordStrength } from '#web/components/password-strength';
import { validate } from '#web/features/account/validate';

function InvalidLink() {
  return (
    <div className="space-y-4 text-center" data-testid="reset-invalid">
      <p role="alert" className="text-sm font-medium text-destructive">
        {ACCOUNT_MESSAGES.resetInvalid}
      </p>
      <Button asChild variant="gold" className="w-full">
        <Link to="/forgot-password">Send me a new link</Link>
      </Button>
    </div>
  );
}

export default function ResetPasswordPage() {
  usePageTitle('Reset Password', 'Choose a new password for your Metal Cards NYC account.');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [v, setV] = useState({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [invalid, setInvalid] = useState(!/^[A-Za-z0-9_-]{20,200}$/.test(token));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const checked = validate(PasswordResetBody, { token, ...v });
    if (!checked.ok) {
      if (checked.errors.token) return setInvalid(true);
      setErrors(checked.errors);
      if (checked.errors.password) toast({ title: 'Password too short', description: checked.errors.password, variant: 'destructive' });
      else if (checked.errors.confirmPassword) toast({ title: "Passwords don't match", description: 'Please make sure both passwords are the same.', variant: 'destructive' });
      return;
    }
    setErrors({});
    try {
      const res = await reset.mutateAsync(checked.data);
      toast({ title: 'Password reset', description: res.message });
      navigate('/profile');
    } catch (err) {
      const fe = fieldErrors(err);
      if (err instanceof ApiError && err.status === 400 && fe.token) return setInvalid(true);
      setErrors(fe);
      toast({ title: 'Reset failed', description: errorMessage(err, 'Please try again.'), variant: 'destructive' });
    }
  }

  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader className="text-center">
          <CardTitle as="h1" className="text-2xl">Choose a new password</CardTitle>
          <CardDescription>Every other device signed in to your account will be signed out.</CardDescription>
        </CardHeader>
        <CardContent>
          {invalid ? (
            <InvalidLink />
          ) : (
            <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Reset password">
              <FormField id="rp-password" label="New password" required error={errors.password} hint="At least 6 characters.">
                <PasswordInput
                  id="rp-password"
                  autoComplete="new-password"
                  value={v.password}
                  onChange={(e) => setV((s) => ({ ...s, password: e.target.value }))}
                  {...ariaFor('rp-password', errors.password)}
                />
                <PasswordStrength password={v.password} />
              </FormField>
              <FormField id="rp-confirm" label="Confirm new password" required error={errors.confirmPassword}>
                <PasswordInput
                  id="rp-confirm"
                  autoComplete="new-password"
                  value={v.confirmPassword}
                  onChange={(e) => setV((s) => ({ ...s, confirmPassword: e.target.value }))}
                  {...ariaFor('rp-confirm', errors.confirmPassword)}
                />
              </FormField>
              <Button type="submit" variant="gold" className="w-full" disabled={reset.isPending}>
                {reset.isPending ? 'Saving...' : 'Set new password'}
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
