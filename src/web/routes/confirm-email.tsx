import { useSearchParams, Link } from 'react-router';
import { CheckCircle2 } from 'lucide-react';
import { ACCOUNT_MESSAGES } from '#shared/schemas/account';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { usePageTitle } from '#web/lib/use-page-title';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { useAuth } from '#web/features/auth/use-auth';
import { useConfirmEmail } from '#web/features/account/api';

/**
 * Confirms a change of e-mail address. The change happens on a click, not on page load, so a mail
 * scanner that opens links cannot confirm it on the person's behalf.
 */
export default function ConfirmEmailPage() {
  usePageTitle('Confirm Email', 'Confirm the new email address of your Metal Cards NYC account.');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
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
          <CardTitle className="text-2xl">
            <h1>Confirm your new email</h1>
          </CardTitle>
          <CardDescription>One click and your account uses its new address.</CardDescription>
        </CardHeader>
        <CardContent>{body}</CardContent>
      </Card>
    </section>
  );
}
