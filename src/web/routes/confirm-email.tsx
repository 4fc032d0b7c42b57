// page-length: one page answers two links (verify the address, confirm a change), each with its
// three states (ready, done, refused).
import { useSearchParams, Link } from 'react-router';
import { CheckCircle2 } from 'lucide-react';
import { ACCOUNT_MESSAGES } from '#shared/schemas/account';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { usePageTitle } from '#web/lib/use-page-title';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { useAuth } from '#web/lib/session/use-auth';
import { useConfirmEmail } from '#web/features/account/api';
import { useVerifyEmail } from '#web/features/auth/api';
import { VERIFY_MESSAGES } from '#shared/auth-rules';

/**
 * Confirms a change of e-mail address. The change happens on a click, not on page load, so a mail
 * scanner that opens links cannot confirm it on the person's behalf.
 */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const verify = params.get('verify');
  return verify !== null ? <VerifyEmailView token={verify} /> : <ConfirmChangeView token={params.get('token') ?? ''} />;
}

/**
 * Verifies the account's address (the link sent at sign-up or by "Resend", issue 19). Also on a
 * click, not on page load, for the same reason as below.
 */
function VerifyEmailView({ token }: { token: string }) {
  usePageTitle('Verify Email', 'Verify the email address of your Metal Cards NYC account.');
  const { user } = useAuth();
  const verify = useVerifyEmail();
  const wellFormed = /^[A-Za-z0-9_-]{20,200}$/.test(token);

  async function onVerify() {
    try {
      const res = await verify.mutateAsync(token);
      toast({ title: 'Email verified', description: res.message });
    } catch (err) {
      toast({ title: 'Verification failed', description: errorMessage(err, VERIFY_MESSAGES.invalid), variant: 'destructive' });
    }
  }

  let body;
  if (verify.isSuccess) {
    body = (
      <div className="space-y-4 text-center" role="status">
        <CheckCircle2 className="mx-auto size-10 text-green-500" aria-hidden="true" />
        <p className="text-sm" data-testid="verify-done">
          {verify.data.message}
        </p>
        <Button asChild variant="gold" className="w-full">
          <Link to={user ? '/profile' : '/login'}>{user ? 'Go to my profile' : 'Go to login'}</Link>
        </Button>
      </div>
    );
  } else if (!wellFormed || verify.isError) {
    body = (
      <div className="space-y-4 text-center">
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="verify-invalid">
          {verify.isError ? errorMessage(verify.error, VERIFY_MESSAGES.invalid) : VERIFY_MESSAGES.invalid}
        </p>
        <Button asChild variant="outline" className="w-full">
          <Link to={user ? '/profile' : '/login'}>{user ? 'Back to my profile' : 'Go to login'}</Link>
        </Button>
      </div>
    );
  } else {
    body = (
      <div className="space-y-4">
        <p className="text-sm text-muted-foreground">Press the button to confirm that this email address is yours.</p>
        <Button variant="gold" className="w-full" onClick={onVerify} disabled={verify.isPending}>
          {verify.isPending ? 'Verifying...' : 'Verify email address'}
        </Button>
      </div>
    );
  }

  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader className="text-center">
          <CardTitle as="h1" className="text-2xl">Verify your email</CardTitle>
          <CardDescription>One click and your address is confirmed.</CardDescription>
        </CardHeader>
        <CardContent>{body}</CardContent>
      </Card>
    </section>
  );
}

function ConfirmChangeView({ token }: { token: string }) {
  usePageTitle('Confirm Email', 'Confirm the new email address of your Metal Cards NYC account.');
  const { user } = useAuth();
  const confirm = useConfirmEmail();
  const wellFormed = /^[A-Za-z0-9_-]{20,200}$/.test(token);

  async function onConfirm() {
    try {
      const res = await confirm.mutateAsync(token);
      toast({ title: 'Email confirmed', description: res.message });
    } catch (err) {
      toast({ title: 'Confirmation failed', description: errorMessage(err, ACCOUNT_MESSAGES.emailLinkInvalid), variant: 'destructive' });
    }
  }

  let body;
  if (confirm.isSuccess) {
    body = (
      <div className="space-y-4 text-center" role="status">
        <CheckCircle2 className="mx-auto size-10 text-green-500" aria-hidden="true" />
        <p className="text-sm" data-testid="confirm-done">
          {confirm.data.message} Sign in with <span className="font-semibold">{confirm.data.email}</span> from now on.
        </p>
        <Button asChild variant="gold" className="w-full">
          <Link to={user ? '/account' : '/login'}>{user ? 'Back to account settings' : 'Go to login'}</Link>
        </Button>
      </div>
    );
  } else if (!wellFormed || confirm.isError) {
    body = (
      <div className="space-y-4 text-center">
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="confirm-invalid">
          {confirm.isError ? errorMessage(confirm.error, ACCOUNT_MESSAGES.emailLinkInvalid) : ACCOUNT_MESSAGES.emailLinkInvalid}
        </p>
        <p className="text-sm text-muted-foreground">You can ask for a new link from your account settings.</p>
        <Button asChild variant="outline" className="w-full">
          <Link to="/account">Account settings</Link>
        </Button>
      </div>
    );
  } else {
    body = (
      <div className="space-y-4">
        <p className="text-sm text-muted-foreground">Press the button to start using this address for your account. The old address stops working for sign-in.</p>
        <Button variant="gold" className="w-full" onClick={onConfirm} disabled={confirm.isPending}>
          {confirm.isPending ? 'Confirming...' : 'Confirm new email'}
        </Button>
      </div>
    );
  }

  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader className="text-center">
          <CardTitle as="h1" className="text-2xl">Confirm your new email</CardTitle>
          <CardDescription>One click and your account uses its new address.</CardDescription>
        </CardHeader>
        <CardContent>{body}</CardContent>
      </Card>
    </section>
  );
}
