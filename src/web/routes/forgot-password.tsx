import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MailCheck } from 'lucide-react';
import { PasswordForgotBody } from '#shared/schemas/account';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { usePageTitle } from '#web/lib/use-page-title';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input } from '#web/components/ui/input';
import { useForgotPassword } from '#web/features/account/api';
import { ariaFor } from '#web/components/password-input';
import { validate } from '#web/features/account/validate';

export default function ForgotPasswordPage() {
  usePageTitle('Forgot Password', 'Get a link to choose a new password for your Metal Cards NYC account.');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<{ message: string; email: string } | null>(null);
  const forgot = useForgotPassword();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const v = validate(PasswordForgotBody, { email });
    if (!v.ok) {
      setError(v.errors.email ?? v.first);
      return;
    }
    setError(undefined);
    try {
      const res = await forgot.mutateAsync(v.data.email);
      setSent({ message: res.message, email: v.data.email });
    } catch (err) {
      setError(fieldErrors(err).email);
      toast({ title: 'Request failed', description: errorMessage(err, 'Please try again in a moment.'), variant: 'destructive' });
    }
  }

  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader className="text-center">
          <CardTitle as="h1" className="text-2xl">Forgot your password?</CardTitle>
          <CardDescription>Enter the email of your account and we will send you a link to choose a new password.</CardDescription>
        </CardHeader>
        <CardContent>
          {sent ? (
            <div className="space-y-4 text-center" role="status">
              <MailCheck className="mx-auto size-10 text-gold" aria-hidden="true" />
              <h2 className="text-lg font-semibold">Check your inbox</h2>
              <p className="text-sm text-muted-foreground" data-testid="forgot-sent">
                {sent.message}
              </p>
              <p className="text-xs text-muted-foreground">
                Sent to <span className="font-medium text-foreground">{sent.email}</span>. Nothing arrived? Check the spam folder, or{' '}
                <button type="button" className="underline underline-offset-4 hover:text-foreground cursor-pointer" onClick={() => setSent(null)}>
                  try again
                </button>
                .
              </p>
              <Button asChild variant="outline" className="w-full">
                <Link to="/login">Back to login</Link>
              </Button>
            </div>
          ) : (
            <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Forgot password">
              <FormField id="fp-email" label="Email" required error={error}>
                <Input id="fp-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} {...ariaFor('fp-email', error)} />
              </FormField>
              <Button type="submit" variant="gold" className="w-full" disabled={forgot.isPending}>
                {forgot.isPending ? 'Sending...' : 'Send reset link'}
              </Button>
              <p className="text-center text-sm">
                <Link to="/login" className="text-muted-foreground underline-offset-4 hover:text-foreground hover:underline">
                  Back to login
                </Link>
              </p>
            </form>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
