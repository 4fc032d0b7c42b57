import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Download, Trash2 } from 'lucide-react';
import { AccountDeleteBody } from '#shared/schemas/account';
import { ACCOUNT_DELETED_PATH } from '#shared/routes';
import { ApiError, errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '#web/components/ui/dialog';
import { FormField } from '#web/components/ui/input';
import { downloadAccountExport, useDeleteAccount } from '#web/features/account/api';
import { validate } from '#web/features/account/validate';
import { PasswordInput, ariaFor } from '#web/components/password-input';

function DeleteAccountDialog() {
  const navigate = useNavigate();
  const del = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  // a refusal that is not about the password (409: the team needs another owner first)
  const [blocked, setBlocked] = useState<string | undefined>();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const checked = validate(AccountDeleteBody, { password });
    if (!checked.ok) return setError(checked.errors.password ?? checked.first);
    setError(undefined);
    setBlocked(undefined);
    try {
      const res = await del.mutateAsync(checked.data.password);
      setOpen(false);
      // leave the signed-in page first, so it does not redirect to the login page on its way out
      // the page it lands on forgets the account once it shows (useForgetAccount)
      await navigate(ACCOUNT_DELETED_PATH, { replace: true, state: { accountDeleted: true } });
      toast({ title: 'Account deleted', description: res.message });
    } catch (err) {
      setError(fieldErrors(err).password);
      if (err instanceof ApiError && err.status === 409) setBlocked(errorMessage(err));
      toast({ title: 'Account not deleted', description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) {
          setPassword('');
          setError(undefined);
          setBlocked(undefined);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive">
          <Trash2 aria-hidden="true" />
          Delete my account
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Delete your account?</DialogTitle>
        <DialogDescription>
          Your profile page stops working at once (cards already printed will show that the profile was removed). Your profile, images, links,
          card designs, statistics and leads are deleted for good. Orders are kept for our business records without your name or contact
          details. This cannot be undone.
        </DialogDescription>
        {blocked ? (
          <p role="alert" className="rounded-md border border-destructive/60 p-3 text-sm text-destructive" data-testid="delete-blocked">
            {blocked}
          </p>
        ) : null}
        <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Delete account">
          <FormField id="da-password" label="Enter your password to confirm" required error={error}>
            <PasswordInput id="da-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} {...ariaFor('da-password', error)} />
          </FormField>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Keep my account
            </Button>
            <Button type="submit" variant="destructive" disabled={del.isPending}>
              {del.isPending ? 'Deleting...' : 'Delete account permanently'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function YourDataCard() {
  const [busy, setBusy] = useState(false);

  async function onDownload() {
    setBusy(true);
    try {
      const name = await downloadAccountExport();
      toast({ title: 'Download started', description: `Your data is saved as ${name}.` });
    } catch (err) {
      toast({ title: 'Download failed', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Your data</CardTitle>
        <CardDescription>Everything we hold about your account, or the end of it.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="space-y-2">
          <h3 className="text-sm font-semibold">Download your data</h3>
          <p className="text-sm text-muted-foreground">
            One JSON file with your account, profile, links, images, card designs, orders, profile visits, link clicks, contact saves and leads.
          </p>
          <Button variant="outline" onClick={onDownload} disabled={busy}>
            <Download aria-hidden="true" />
            {busy ? 'Preparing...' : 'Download my data'}
          </Button>
        </div>
        <div className="space-y-2 rounded-md border border-destructive/50 p-4">
          <h3 className="text-sm font-semibold text-destructive">Delete account</h3>
          <p className="text-sm text-muted-foreground">Download your data first if you want to keep a copy. The email address can be used to sign up again afterwards.</p>
          <DeleteAccountDialog />
        </div>
      </CardContent>
    </Card>
  );
}
