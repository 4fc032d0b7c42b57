import { useState, type FormEvent } from 'react';
import { KeyRound, ShieldCheck } from 'lucide-react';
import { qrDataUrl } from '#web/lib/qr-data-url';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { QrImage } from '#web/components/qr-image';
import { PasswordInput } from '#web/components/password-input';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import type { PasskeyItem } from '#shared/schemas/auth';
import {
  passkeysSupported,
  useAddPasskey,
  useConfirmTotp,
  useDisableTotp,
  usePasskeys,
  useReauthenticate,
  useRemovePasskey,
  useRenamePasskey,
  useStartTotp,
  useTwoFactorStatus,
} from '#web/features/auth/two-factor-api';

/**
 * Account settings, "Sign-in security" (issue 39): the authenticator app (QR code, first code,
 * ten recovery codes shown once, turning it off with the password), passkeys (add, name, remove)
 * and "confirm it is you" for the staff's sensitive actions.
 */
export function SecurityCard() {
  const status = useTwoFactorStatus();
  return (
    <Card id="security">
      <CardHeader>
        <CardTitle as="h2">Sign-in security</CardTitle>
        <CardDescription>A second step at sign-in: a code from an authenticator app, or a passkey on this device or your phone.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {status.isLoading ? (
          <Skeleton className="h-24 w-full" />
        ) : status.isError || !status.data ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(status.error, 'Could not load your sign-in security.')}
          </p>
        ) : (
          <>
            {status.data.staffSetupRequired ? (
              <p role="alert" className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm" data-testid="staff-setup-required">
                Staff accounts need a second factor. Set up an authenticator app or add a passkey; the staff area opens once this session has used one.
              </p>
            ) : null}
            <TotpSection state={status.data.totp} recoveryCodesLeft={status.data.recoveryCodesLeft} />
            <PasskeysSection />
            <ConfirmItsYou hasFactor={status.data.totp === 'on' || status.data.passkeys > 0} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function TotpSection({ state, recoveryCodesLeft }: { state: 'off' | 'pending' | 'on'; recoveryCodesLeft: number }) {
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const disable = useDisableTotp();
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string } | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function onStart() {
    setErrors({});
    try {
      setSetup(await start.mutateAsync());
    } catch (err) {
      toast({ title: 'Could not start the set-up', description: errorMessage(err), variant: 'destructive' });
    }
  }
  async function onConfirm(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return setErrors({ code: 'Enter the 6-digit code from your authenticator app or a recovery code.' });
    try {
      const res = await confirm.mutateAsync(code);
      setCodes(res.recoveryCodes);
      setSetup(null);
      setCode('');
      setErrors({});
      toast({ title: 'Two-factor sign-in is on' });
    } catch (err) {
      setErrors(fieldErrors(err));
      if (!fieldErrors(err).code) toast({ title: 'Not turned on', description: errorMessage(err), variant: 'destructive' });
    }
  }
  async function onDisable(e: FormEvent) {
    e.preventDefault();
    if (!password) return setErrors({ password: 'Enter your password to confirm it is you.' });
    try {
      const res = await disable.mutateAsync(password);
      setPassword('');
      setErrors({});
      toast({ title: 'Two-factor sign-in is off', description: res.message });
    } catch (err) {
      setErrors(fieldErrors(err));
    }
  }

  const qr = setup ? qrDataUrl(setup.otpauthUrl, { size: 200, margin: 4, ecl: 'M' }) : null;
  return (
    <section aria-labelledby="totp-title" className="space-y-3">
      <h3 id="totp-title" className="flex items-center gap-2 font-semibold">
        <ShieldCheck className="size-4" aria-hidden="true" /> Authenticator app
        <Badge variant={state === 'on' ? 'default' : 'secondary'} data-testid="totp-state">
          {state === 'on' ? 'On' : 'Off'}
        </Badge>
      </h3>
      {codes ? (
        <div className="space-y-2 rounded-md border border-border p-3" data-testid="recovery-codes">
          <p className="text-sm font-medium">Your recovery codes. Each signs in once if you lose your phone. Save them now: they are not shown again.</p>
          <ul className="grid grid-cols-2 gap-1 font-mono text-sm">
            {codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Button type="button" variant="outline" onClick={() => setCodes(null)}>
            I have saved them
          </Button>
        </div>
      ) : null}
      {state === 'on' ? (
        <>
          <p className="text-sm text-muted-foreground">Signing in asks for a code from your app. Recovery codes left: {recoveryCodesLeft}.</p>
          <form onSubmit={onDisable} noValidate className="flex flex-wrap items-end gap-2" aria-label="Turn off the authenticator app">
            <FormField id="totp-off-password" label="Password" error={errors.password}>
              <PasswordInput id="totp-off-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </FormField>
            <Button type="submit" variant="outline" disabled={disable.isPending}>
              Turn off
            </Button>
          </form>
        </>
      ) : setup ? (
        <form onSubmit={onConfirm} noValidate className="space-y-3" aria-label="Confirm the authenticator app">
          <p className="text-sm">Scan this code with your authenticator app (or type the key), then enter the 6-digit code it shows.</p>
          <QrImage value={setup.otpauthUrl} src={qr} size={200} alt="QR code for your authenticator app" />
          <p className="text-xs text-muted-foreground">
            Key: <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <FormField id="totp-code" label="Code from the app" required error={errors.code}>
            <Input id="totp-code" autoComplete="one-time-code" inputMode="numeric" value={code} onChange={(e) => setCode(e.target.value)} aria-invalid={!!errors.code || undefined} />
          </FormField>
          <Button type="submit" variant="gold" disabled={confirm.isPending}>
            Turn on
          </Button>
        </form>
      ) : (
        <Button type="button" variant="outline" onClick={onStart} disabled={start.isPending}>
          Set up an authenticator app
        </Button>
      )}
    </section>
  );
}

function PasskeyRow({ p }: { p: PasskeyItem }) {
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState(p.name);
  const [error, setError] = useState<string | undefined>();
  async function onRename(e: FormEvent) {
    e.preventDefault();
    try {
      await rename.mutateAsync({ id: p.id, name });
      setError(undefined);
      toast({ title: 'Passkey renamed' });
    } catch (err) {
      setError(fieldErrors(err).name ?? errorMessage(err));
    }
  }
  async function onRemove() {
    try {
      await remove.mutateAsync(p.id);
      toast({ title: 'Passkey removed' });
    } catch (err) {
      toast({ title: 'Could not remove the passkey', description: errorMessage(err), variant: 'destructive' });
    }
  }
  return (
    <li className="space-y-1 p-3" data-testid="passkey-row">
      <form onSubmit={onRename} noValidate className="flex flex-wrap items-end gap-2" aria-label={`Passkey ${p.name}`}>
        <FormField id={`pk-${p.id}`} label="Name" error={error}>
          <Input id={`pk-${p.id}`} value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
        </FormField>
        <Button type="submit" variant="outline" size="sm" disabled={rename.isPending || name === p.name}>
          Save name
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={onRemove} disabled={remove.isPending}>
          Remove
        </Button>
      </form>
      <p className="text-xs text-muted-foreground">
        Added {new Date(p.createdAt).toLocaleDateString()}
        {p.lastUsedAt ? `, last used ${new Date(p.lastUsedAt).toLocaleDateString()}` : ', not used yet'}
        {p.backedUp ? ' (synced)' : ''}
      </p>
    </li>
  );
}

function PasskeysSection() {
  const list = usePasskeys();
  const add = useAddPasskey();
  const [name, setName] = useState('');
  async function onAdd(e: FormEvent) {
    e.preventDefault();
    try {
      await add.mutateAsync(name.trim() || undefined);
      setName('');
      toast({ title: 'Passkey added' });
    } catch (err) {
      const n = (err as { name?: string } | null)?.name;
      if (n === 'NotAllowedError' || n === 'AbortError') return;
      toast({ title: 'Passkey not added', description: errorMessage(err, 'The passkey could not be created.'), variant: 'destructive' });
    }
  }
  const passkeys = list.data?.passkeys ?? [];
  return (
    <section aria-labelledby="passkeys-title" className="space-y-3">
      <h3 id="passkeys-title" className="flex items-center gap-2 font-semibold">
        <KeyRound className="size-4" aria-hidden="true" /> Passkeys
      </h3>
      <p className="text-sm text-muted-foreground">Sign in with your fingerprint, face or screen lock instead of a password. A passkey is also a second factor.</p>
      {passkeys.length ? (
        <ul className="divide-y divide-border rounded-md border border-border" aria-label="Your passkeys">
          {passkeys.map((p) => (
            <PasskeyRow key={p.id} p={p} />
          ))}
        </ul>
      ) : list.isLoading ? null : (
        <p className="text-sm">No passkeys yet.</p>
      )}
      {passkeysSupported() ? (
        <form onSubmit={onAdd} noValidate className="flex flex-wrap items-end gap-2" aria-label="Add a passkey">
          <FormField id="pk-new-name" label="Name (optional)">
            <Input id="pk-new-name" value={name} maxLength={60} placeholder="e.g. Work laptop" onChange={(e) => setName(e.target.value)} />
          </FormField>
          <Button type="submit" variant="outline" disabled={add.isPending}>
            Add a passkey
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">This browser cannot create passkeys.</p>
      )}
    </section>
  );
}

/** A sign-in or code within the last 15 minutes: what exports, refunds, cancellations and template uploads ask of staff. */
function ConfirmItsYou({ hasFactor }: { hasFactor: boolean }) {
  const re = useReauthenticate();
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    try {
      await re.mutateAsync(hasFactor ? { code: value } : { password: value });
      setValue('');
      setErrors({});
      toast({ title: 'Confirmed', description: 'Sensitive actions are open for the next 15 minutes.' });
    } catch (err) {
      setErrors(fieldErrors(err));
      if (!Object.keys(fieldErrors(err)).length) toast({ title: 'Not confirmed', description: errorMessage(err), variant: 'destructive' });
    }
  }
  const field = hasFactor ? 'code' : 'password';
  return (
    <section aria-labelledby="reauth-title" className="space-y-2">
      <h3 id="reauth-title" className="font-semibold">
        Confirm it is you
      </h3>
      <p className="text-sm text-muted-foreground">Staff exports, refunds, cancellations and template uploads ask for this when your last sign-in was more than 15 minutes ago.</p>
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2" aria-label="Confirm it is you">
        <FormField id="reauth-value" label={hasFactor ? 'Code' : 'Password'} error={errors[field]}>
          {hasFactor ? (
            <Input id="reauth-value" autoComplete="one-time-code" value={value} onChange={(e) => setValue(e.target.value)} />
          ) : (
            <PasswordInput id="reauth-value" autoComplete="current-password" value={value} onChange={(e) => setValue(e.target.value)} />
          )}
        </FormField>
        <Button type="submit" variant="outline" disabled={re.isPending}>
          Confirm
        </Button>
      </form>
    </section>
  );
}
