import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PackageCheck, PackageSearch } from 'lucide-react';
import { BUSINESS } from '#shared/catalogue';
import { CLAIM_MESSAGES } from '#shared/schemas/orders';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { usePageTitle } from '#web/lib/use-page-title';
import { AUTH_USER_KEY, useAuth } from '#web/features/auth/use-auth';
import { PasswordInput } from '#web/features/account/components/password-input';
import { PasswordStrength } from '#web/features/auth/password-strength';
import { useClaimOrder, useOrderClaim } from '#web/features/orders/api';

/**
 * The claim link of a visitor's order (issue 20): signed in, one button attaches the order; signed
 * out, a password creates the account from the order's name and e-mail (or sign in first). Either
 * way the profile is built from the order and the cards' QR code opens it.
 */
export default function ClaimOrderPage() {
  const { token = '' } = useParams();
  usePageTitle('Claim your order');
  const { user, isLoading: authLoading } = useAuth();
  const claim = useOrderClaim(token);
  const doClaim = useClaimOrder();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  // a private link: keep it out of search engines
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);

  const submit = (body: { password?: string; confirmPassword?: string }) => {
    setErrors({});
    doClaim.mutate(
      { token, ...body },
      {
        onSuccess: async (r) => {
          qc.setQueryData(AUTH_USER_KEY, r.user);
          await qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== AUTH_USER_KEY[0] });
          toast({ title: 'Order claimed', description: `Order #${r.orderId} is in your account and your cards open your profile.` });
          navigate('/profile');
        },
        onError: (err) => {
          setErrors(fieldErrors(err));
          toast({ title: 'Could not claim the order', description: errorMessage(err), variant: 'destructive' });
        },
      },
    );
  };

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirmPassword) {
      setErrors({ confirmPassword: "Passwords don't match" });
      return;
    }
    submit({ password, confirmPassword });
  };

  if (claim.isLoading || authLoading) {
    return (
      <section className="mx-auto max-w-xl space-y-4 px-4 py-12" aria-busy="true">
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-48 w-full" />
      </section>
    );
  }
  if (claim.error || !claim.data) {
    return (
      <section className="mx-auto max-w-xl px-4 py-16 text-center">
        <PackageSearch className="mx-auto mb-4 size-12 text-muted-foreground" aria-hidden="true" />
        <h1 className="text-2xl font-bold">This link cannot be used</h1>
        <p className="mt-2 text-muted-foreground">
          {CLAIM_MESSAGES.invalid} Questions? Write to <a className="underline" href={`mailto:${BUSINESS.email}`}>{BUSINESS.email}</a>.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Button asChild variant="outline">
            <Link to={user ? '/orders' : '/login'}>{user ? 'My Orders' : 'Sign in'}</Link>
          </Button>
        </div>
      </section>
    );
  }
  const c = claim.data;

  return (
    <section className="mx-auto max-w-xl space-y-6 px-4 py-12">
      <header className="text-center">
        <PackageCheck className="mx-auto mb-3 size-12 text-gold" aria-hidden="true" />
        <h1 className="text-3xl font-bold tracking-tight">Claim order #{c.orderId}</h1>
        <p className="mt-2 text-muted-foreground">
          {c.quantity.toLocaleString('en-US')} × {c.cardTypeLabel} for {c.customerName}
          {c.companyName ? `, ${c.companyName}` : ''}. Every card's QR code opens the digital profile you get here.
        </p>
      </header>

      {user ? (
        <Card>
          <CardHeader>
            <CardTitle>Add it to your account</CardTitle>
            <CardDescription>
              Signed in as {user.email}. The order joins this account; if you have no profile yet, we build it from the order's details.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button variant="gold" className="w-full" disabled={doClaim.isPending} onClick={() => submit({})}>
              {doClaim.isPending ? 'Claiming…' : `Claim order #${c.orderId}`}
            </Button>
          </CardContent>
        </Card>
      ) : c.accountExists ? (
        <Card>
          <CardHeader>
            <CardTitle>Sign in to claim</CardTitle>
            <CardDescription>An account with {c.email} already exists. Sign in, then come back to this link.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild variant="gold" className="w-full">
              <Link to="/login" state={{ returnTo: `/claim/${encodeURIComponent(token)}` }}>
                Sign in
              </Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Create your account</CardTitle>
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
              <Button type="submit" variant="gold" className="w-full" disabled={doClaim.isPending}>
                {doClaim.isPending ? 'Creating…' : 'Create account and claim'}
              </Button>
              <p className="text-center text-sm text-muted-foreground">
                Already have an account?{' '}
                <Link className="underline" to="/login" state={{ returnTo: `/claim/${encodeURIComponent(token)}` }}>
                  Sign in
                </Link>
              </p>
            </form>
          </CardContent>
        </Card>
      )}
    </section>
  );
}
