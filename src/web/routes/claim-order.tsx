import { useCallback, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PackageCheck, PackageSearch } from 'lucide-react';
import { BUSINESS } from '#shared/catalogue';
import { CLAIM_MESSAGES } from '#shared/schemas/orders';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useNoIndex, usePageTitle } from '#web/lib/use-page-title';
import { AUTH_USER_KEY, useAuth } from '#web/lib/session/use-auth';
import { useClaimOrder, useOrderClaim } from '#web/features/orders/api';
import { ClaimForms } from '#web/features/orders/components/claim-forms';
import { ClaimAddressStep } from '#web/features/orders/components/claim-address';

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
  // claimed (issue 35): the delivery address if it is missing, then the designer for this order
  const [claimed, setClaimed] = useState<{ orderId: number; token: string } | null>(null);
  const toDesigner = useCallback(() => {
    if (claimed) navigate(`/design?order=${claimed.orderId}`);
  }, [claimed, navigate]);

  useNoIndex();

  const submit = (body: { password?: string; confirmPassword?: string }) => {
    setErrors({});
    doClaim.mutate(
      { token, ...body },
      {
        onSuccess: async (r) => {
          qc.setQueryData(AUTH_USER_KEY, r.user);
          await qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== AUTH_USER_KEY[0] });
          toast({ title: 'Order claimed', description: `Order #${r.orderId} is in your account and your cards open your profile.` });
          setClaimed({ orderId: r.orderId, token: r.statusPath.split('/').pop() ?? '' });
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

  if (claimed) {
    return (
      <section className="mx-auto max-w-xl space-y-6 px-4 py-12">
        <h1 className="text-center text-3xl font-bold tracking-tight">Order #{claimed.orderId} is yours</h1>
        <ClaimAddressStep orderId={claimed.orderId} token={claimed.token} onDone={toDesigner} />
      </section>
    );
  }
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

      <ClaimForms
        claim={c}
        token={token}
        signedInAs={user?.email ?? null}
        pending={doClaim.isPending}
        errors={errors}
        password={password}
        confirmPassword={confirmPassword}
        setPassword={setPassword}
        setConfirmPassword={setConfirmPassword}
        onClaim={() => submit({})}
        onCreate={onCreate}
      />
    </section>
  );
}
