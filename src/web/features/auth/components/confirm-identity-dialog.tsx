import { useEffect, useRef, useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { errorMessage, fieldErrors, setRecentAuthConfirm } from '#web/lib/api';
import { PasswordInput } from '#web/components/password-input';
import { Button } from '#web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog';
import { FormField, Input } from '#web/components/ui/input';
import { passkeysSupported, reauthenticateWithPasskey, useReauthenticate, useTwoFactorStatus } from '#web/features/auth/two-factor-api';

/**
 * "Confirm it is you" (issue 39, decision 39-05): mounted on the staff pages, it answers the
 * recent-auth refusal of a sensitive action (exports, refunds, cancellations, template uploads)
 * that `lib/api.ts` hands it. It asks for the password (an account without a second factor) or a
 * code from the authenticator app, a recovery code or a passkey; once the server confirms the
 * session the action is sent again. Closing the dialog leaves the action refused, as it was.
 */
export function ConfirmIdentityDialog() {
  const [open, setOpen] = useState(false);
  const settle = useRef<((ok: boolean) => void) | null>(null);

  useEffect(
    () =>
      setRecentAuthConfirm(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current?.(false);
            settle.current = resolve;
            setOpen(true);
          }),
      ),
    [],
  );

  function finish(ok: boolean) {
    settle.current?.(ok);
    settle.current = null;
    setOpen(false);
  }

  return (
    <Dialog open={open} onOpenChange={(o) => (o ? setOpen(true) : finish(false))}>
      <DialogContent aria-describedby="confirm-identity-why">
        <DialogTitle>Confirm it is you</DialogTitle>
        <DialogDescription id="confirm-identity-why">
          This action needs a sign-in from the last 15 minutes. Confirm it is you and it goes ahead.
        </DialogDescription>
        {open ? <ConfirmForm onConfirmed={() => finish(true)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ConfirmForm({ onConfirmed }: { onConfirmed: () => void }) {
  const status = useTwoFactorStatus();
  const re = useReauthenticate();
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busyPasskey, setBusyPasskey] = useState(false);

  if (status.isLoading) return <p className="text-sm text-muted-foreground">Loading…</p>;
  const hasTotp = status.data?.totp === 'on';
  const hasPasskey = (status.data?.passkeys ?? 0) > 0 && passkeysSupported();
  const hasFactor = hasTotp || (status.data?.passkeys ?? 0) > 0;
  const field = hasFactor ? 'code' : 'password';

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setMessage('');
    try {
      await re.mutateAsync(hasFactor ? { code: value } : { password: value });
      onConfirmed();
    } catch (err) {
      const fe = fieldErrors(err);
      setErrors(fe);
      if (!Object.keys(fe).length) setMessage(errorMessage(err));
    }
  }

  async function withPasskey() {
    setMessage('');
    setBusyPasskey(true);
    try {
      await reauthenticateWithPasskey();
      onConfirmed();
    } catch (err) {
      setMessage(errorMessage(err, 'The passkey could not be used. Please try again.'));
    } finally {
      setBusyPasskey(false);
    }
  }

  return (
    <div className="space-y-4">
      {hasFactor && !hasTotp && hasPasskey ? null : (
        <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Confirm it is you">
          <FormField
            id="confirm-identity-value"
            label={hasFactor ? 'Code from your authenticator app' : 'Your password'}
            hint={hasFactor ? 'Or one of your recovery codes.' : undefined}
            error={errors[field]}
          >
            {hasFactor ? (
              <Input id="confirm-identity-value" autoComplete="one-time-code" autoFocus value={value} onChange={(e) => setValue(e.target.value)} />
            ) : (
              <PasswordInput id="confirm-identity-value" autoComplete="current-password" autoFocus value={value} onChange={(e) => setValue(e.target.value)} />
            )}
          </FormField>
          <Button type="submit" variant="gold" disabled={re.isPending}>
            Confirm
          </Button>
        </form>
      )}
      {hasPasskey ? (
        <Button type="button" variant="outline" onClick={withPasskey} disabled={busyPasskey}>
          <KeyRound aria-hidden="true" /> Use a passkey
        </Button>
      ) : null}
      {message ? (
        <p role="alert" className="text-sm text-destructive">
          {message}
        </p>
      ) : null}
    </div>
  );
}
