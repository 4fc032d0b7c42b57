// page-length: the spec's one page with two tabs (sign in, sign up); each form is short, and they
// share the after-sign-in step and the tab switch.
import { LegalConsent } from '#web/components/legal-consent';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PASSWORD_MIN } from '#shared/auth-rules';
import type { AuthUser } from '#shared/schemas/auth';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { usePageTitle } from '#web/lib/use-page-title';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';
import { PasswordInput } from '#web/components/password-input';
import { PasswordStrength } from '#web/components/password-strength';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input } from '#web/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { getAccountTwoFactor, postAuthLogin, postAuthLoginTwoFactor, postAuthRegister } from '#shared/contracts/auth';
import { callEndpoint } from '#web/lib/endpoint';
import { browserSupportsWebAuthnAutofill } from '@simplewebauthn/browser';
import { cancelPasskeyCeremony, passkeysSupported, signInWithPasskey } from '#web/features/auth/two-factor-api';
import { SsoSignIn } from '#web/features/sso/components/sso-sign-in';

/** After sign-in or sign-up: /profile (the spec), or back to a claim link that sent the user here. */
function useAfterAuth() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const returnTo = (location.state as { returnTo?: unknown } | null)?.returnTo;
  return async (user: AuthUser) => {
    qc.setQueryData(AUTH_USER_KEY, user);
    // staff without a second factor (STAFF_TWO_FACTOR=required) are asked to set one up first (issue 39)
    if (user.role === 'admin') {
      const status = await callEndpoint(getAccountTwoFactor).catch(() => null);
      if (status?.staffSetupRequired) {
        toast({ title: 'Set up two-factor sign-in', description: 'Staff accounts need an authenticator app or a passkey before the staff area opens.' });
        navigate('/account#security');
        return;
      }
    }
    // back to a claim link or a team invitation (issue 21) that sent the user here
    navigate(typeof returnTo === 'string' && /^\/(claim|team\/join)\/[A-Za-z0-9_-]+$/.test(returnTo) ? returnTo : '/profile');
  };
}

/** The address an invitation or claim link was sent to (prefilled when it sent the user here). */
function useInvitedEmail(): string {
  const email = (useLocation().state as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email : '';
}

function SignUpForm() {
  const done = useAfterAuth();
  const invited = useInvitedEmail();
  const [v, setV] = useState({ firstName: '', lastName: '', username: '', email: invited, password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof v) => (e: React.ChangeEvent<HTMLInputElement>) => setV((s) => ({ ...s, [k]: e.target.value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!v.username.trim() || !v.email.trim() || !v.password) {
      toast({ title: 'Missing information', description: 'Please fill in all required fields.', variant: 'destructive' });
      return;
    }
    if (v.password !== v.confirmPassword) {
      setErrors({ confirmPassword: "Passwords don't match" });
      toast({ title: "Passwords don't match", description: 'Please make sure both passwords are the same.', variant: 'destructive' });
      return;
    }
    if (v.password.length < PASSWORD_MIN) {
      setErrors({ password: 'Password must be at least 6 characters long.' });
      toast({ title: 'Password too short', description: 'Password must be at least 6 characters long.', variant: 'destructive' });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const user = await callEndpoint(postAuthRegister, { body: v });
      toast({ title: 'Registration successful!', description: `Welcome, ${user.firstName || user.username}!` });
      await done(user);
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({ title: 'Registration failed', description: errorMessage(err, 'Please check your information and try again.'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  const err = (k: string) => errors[k];
  const aria = (k: string) => ({ 'aria-invalid': !!err(k) || undefined, 'aria-describedby': err(k) ? `su-${k}-error` : undefined });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Sign up">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField id="su-firstName" label="First name" error={err('firstName')}>
          <Input id="su-firstName" autoComplete="given-name" value={v.firstName} onChange={set('firstName')} {...aria('firstName')} />
        </FormField>
        <FormField id="su-lastName" label="Last name" error={err('lastName')}>
          <Input id="su-lastName" autoComplete="family-name" value={v.lastName} onChange={set('lastName')} {...aria('lastName')} />
        </FormField>
      </div>
      <FormField id="su-username" label="Username" required error={err('username')}>
        <Input id="su-username" autoComplete="username" value={v.username} onChange={set('username')} {...aria('username')} />
      </FormField>
      <FormField id="su-email" label="Email" required error={err('email')}>
        <Input id="su-email" type="email" autoComplete="email" value={v.email} onChange={set('email')} {...aria('email')} />
      </FormField>
      <FormField id="su-password" label="Password" required error={err('password')} hint="At least 6 characters.">
        <PasswordInput id="su-password" autoComplete="new-password" value={v.password} onChange={set('password')} {...aria('password')} />
        <PasswordStrength password={v.password} userInputs={[v.email, v.username, v.firstName, v.lastName]} />
      </FormField>
      <FormField id="su-confirmPassword" label="Confirm password" required error={err('confirmPassword')}>
        <PasswordInput id="su-confirmPassword" autoComplete="new-password" value={v.confirmPassword} onChange={set('confirmPassword')} {...aria('confirmPassword')} />
      </FormField>
      <Button type="submit" variant="gold" className="w-full" disabled={busy}>
        {busy ? 'Creating account...' : 'Create account'}
      </Button>
      <LegalConsent action="creating an account" testId="signup-legal" />
    </form>
  );
}

/** True when a passkey ceremony ended because the user closed it or another one replaced it (no error to show). */
function isCancelled(err: unknown): boolean {
  const name = (err as { name?: string; code?: string } | null)?.name;
  const code = (err as { code?: string } | null)?.code;
  return name === 'AbortError' || name === 'NotAllowedError' || code === 'ERROR_CEREMONY_ABORTED';
}

/** The sign-in's second step (issue 39): a code from the authenticator app, a recovery code, or a passkey. */
function TwoFactorStep({ methods, onDone, onBack }: { methods: Array<'totp' | 'passkey'>; onDone: (user: AuthUser) => Promise<void>; onBack: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setError('Enter the 6-digit code from your authenticator app or a recovery code.');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const user = await callEndpoint(postAuthLoginTwoFactor, { body: { code } });
      toast({ title: 'Login successful!', description: `Welcome back, ${user.firstName || user.username}!` });
      await onDone(user);
    } catch (err) {
      setError(errorMessage(err, 'That code is not right.'));
    } finally {
      setBusy(false);
    }
  }
  async function usePasskey() {
    setError(null);
    setBusy(true);
    try {
      const user = await signInWithPasskey(false);
      await onDone(user);
    } catch (err) {
      if (!isCancelled(err)) setError(errorMessage(err, 'The passkey could not be used.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Two-factor sign-in">
      <p className="text-sm text-muted-foreground">
        {methods.includes('totp') ? 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.' : 'This account signs in with a passkey as its second step.'}
      </p>
      {methods.includes('totp') ? (
        <FormField id="li-code" label="Authentication code" required>
          <Input id="li-code" autoComplete="one-time-code" inputMode="text" autoFocus value={code} onChange={(e) => setCode(e.target.value)} aria-invalid={!!error || undefined} />
        </FormField>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      {methods.includes('totp') ? (
        <Button type="submit" variant="gold" className="w-full" disabled={busy}>
          {busy ? 'Checking...' : 'Verify'}
        </Button>
      ) : null}
      {methods.includes('passkey') ? (
        <Button type="button" variant="outline" className="w-full" disabled={busy} onClick={usePasskey}>
          Use a passkey
        </Button>
      ) : null}
      <Button type="button" variant="ghost" className="w-full" onClick={onBack}>
        Back
      </Button>
    </form>
  );
}

function LoginForm() {
  const done = useAfterAuth();
  const [email, setEmail] = useState(useInvitedEmail());
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secondStep, setSecondStep] = useState<Array<'totp' | 'passkey'> | null>(null);

  // passkeys offered in the e-mail field's autofill list (conditional mediation), while the form is shown
  useEffect(() => {
    if (secondStep) return;
    let live = true;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill().catch(() => false)) || !live) return;
      try {
        const user = await signInWithPasskey(true);
        if (!live) return;
        toast({ title: 'Login successful!', description: `Welcome back, ${user.firstName || user.username}!` });
        await done(user);
      } catch (err) {
        // only a passkey the user picked and the server refused is worth a message here; a busy
        // server (429) or a browser without the list just leaves the password form as it was
        if (live && !isCancelled(err) && (err as { status?: number }).status === 400) setError(errorMessage(err, 'The passkey could not be used.'));
      }
    })();
    return () => {
      live = false;
      cancelPasskeyCeremony();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [secondStep]);

  async function onPasskey() {
    setError(null);
    setBusy(true);
    try {
      const user = await signInWithPasskey(false);
      toast({ title: 'Login successful!', description: `Welcome back, ${user.firstName || user.username}!` });
      await done(user);
    } catch (err) {
      if (!isCancelled(err)) setError(errorMessage(err, 'The passkey could not be used.'));
    } finally {
      setBusy(false);
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError('Please enter your email and password.');
      toast({ title: 'Missing information', description: 'Please enter your email and password.', variant: 'destructive' });
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const res = await callEndpoint(postAuthLogin, { body: { email, password } });
      if ('twoFactorRequired' in res) {
        setSecondStep(res.methods);
        return;
      }
      toast({ title: 'Login successful!', description: `Welcome back, ${res.firstName || res.username}!` });
      await done(res);
    } catch (err) {
      const msg = errorMessage(err, 'Please check your email and password.');
      setError(msg);
      toast({ title: 'Login failed', description: msg, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  if (secondStep) return <TwoFactorStep methods={secondStep} onDone={done} onBack={() => setSecondStep(null)} />;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Login">
      <FormField id="li-email" label="Email" required>
        <Input id="li-email" type="email" autoComplete="username webauthn" value={email} onChange={(e) => setEmail(e.target.value)} />
      </FormField>
      {/* people of a company that signs in through its identity provider (issue 39) */}
      <SsoSignIn email={email} />
      <FormField id="li-password" label="Password" required>
        <PasswordInput id="li-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </FormField>
      {error ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="gold" className="w-full" disabled={busy}>
        {busy ? 'Signing in...' : 'Login'}
      </Button>
      {passkeysSupported() ? (
        <Button type="button" variant="outline" className="w-full" disabled={busy} onClick={onPasskey}>
          Sign in with a passkey
        </Button>
      ) : null}
      <p className="text-center text-sm">
        <Link to="/forgot-password" className="text-muted-foreground underline-offset-4 hover:text-foreground hover:underline">
          Forgot your password?
        </Link>
      </p>
    </form>
  );
}

export default function AuthPage() {
  const { pathname, state } = useLocation();
  const navigate = useNavigate();
  const tab = pathname === '/login' ? 'login' : 'register';
  usePageTitle(tab === 'login' ? 'Login' : 'Sign Up', 'Sign in or create an account to manage your digital business card profile.');
  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader className="text-center">
          <CardTitle as="h1" className="text-2xl">{tab === 'login' ? 'Welcome back' : 'Create your account'}</CardTitle>
          <CardDescription>Your metal card's digital profile, always up to date.</CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs value={tab} onValueChange={(t) => navigate(t === 'login' ? '/login' : '/signup', { replace: true, state })}>
            <TabsList className="grid w-full grid-cols-2">
              <TabsTrigger value="register">Sign Up</TabsTrigger>
              <TabsTrigger value="login">Login</TabsTrigger>
            </TabsList>
            <TabsContent value="register">
              <SignUpForm />
            </TabsContent>
            <TabsContent value="login">
              <LoginForm />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </section>
  );
}
