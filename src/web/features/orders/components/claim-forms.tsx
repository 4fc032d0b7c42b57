import type { FormEvent } from 'react';
import { Link } from 'react-router';
import type { OrderClaim } from '#shared/schemas/orders';
import { claimOrderPath } from '#shared/routes';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input } from '#web/components/ui/input';
import { PasswordInput } from '#web/components/password-input';
import { PasswordStrength } from '#web/components/password-strength';

export interface ClaimFormsProps {
  claim: OrderClaim;
  token: string;
  /** the signed-in account's e-mail, or null signed out */
  signedInAs: string | null;
  pending: boolean;
  errors: Record<string, string>;
  password: string;
  confirmPassword: string;
  setPassword: (v: string) => void;
  setConfirmPassword: (v: string) => void;
  onClaim: () => void;
  onCreate: (e: FormEvent) => void;
}

/**
 * The three ways to claim a visitor's order (issue 20): signed in, one button; signed out with an
 * account for that e-mail, sign in and come back; otherwise a password creates the account.
 */
export function ClaimForms({ claim: c, token, signedInAs, pending, errors, password, confirmPassword, setPassword, setConfirmPassword, onClaim, onCreate }: ClaimFormsProps) {
  const back = { returnTo: claimOrderPath(token) };
  if (signedInAs) {
    return (
      <Card>
        <CardHeader>
          <CardTitle as="h2">Add it to your account</CardTitle>
          <CardDescription>Signed in as {signedInAs}. The order joins this account; if you have no profile yet, we build it from the order's details.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="gold" className="w-full" disabled={pending} onClick={onClaim}>
            {pending ? 'Claiming…' : `Claim order #${c.orderId}`}
          </Button>
        </CardContent>
      </Card>
    );
  }
  if (c.accountExists) {
    return (
      <Card>
        <CardHeader>
          <CardTitle as="h2">Sign in to claim</CardTitle>
          <CardDescription>An account with {c.email} already exists. Sign in, then come back to this link.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild variant="gold" className="w-full">
            <Link to="/login" state={back}>
              Sign in
            </Link>
          </Button>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Create your account</CardTitle>
        <CardDescription>
          For {c.customerName} ({c.email}). Choose a password; your profile is built from the order and you can edit it at once.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="space-y-4" onSubmit={onCreate} noValidate>
          <FormField id="claim-email" label="Email">
            <Input id="claim-email" value={c.email} readOnly autoComplete="username" />
          </FormField>
          <FormField id="claim-password" label="Password" error={errors.password} required>
            <PasswordInput id="claim-password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" required />
          </FormField>
          <PasswordStrength password={password} />
          <FormField id="claim-confirm" label="Confirm Password" error={errors.confirmPassword} required>
            <PasswordInput id="claim-confirm" value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} autoComplete="new-password" required />
          </FormField>
          <Button type="submit" variant="gold" className="w-full" disabled={pending}>
            {pending ? 'Creating…' : 'Create account and claim'}
          </Button>
          <p className="text-center text-sm text-muted-foreground">
            Already have an account?{' '}
            <Link className="underline" to="/login" state={back}>
              Sign in
            </Link>
          </p>
        </form>
      </CardContent>
    </Card>
  );
}
