import { useState } from 'react';
import { Copy, KeyRound } from 'lucide-react';
import type { ApiTokenSummary, TokenCreateResponse } from '#shared/schemas/developer';
import { errorMessage } from '#web/lib/api';
import { copyText } from '#web/lib/clipboard';
import { toast } from '#web/lib/toast';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '#web/components/ui/dialog';
import { Skeleton } from '#web/components/ui/skeleton';
import { useRevokeToken, useTokens } from '#web/features/developer/api';
import { CreateTokenForm } from './create-token-form';

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleDateString() : none);

/** The secret of a token just made: shown once, with a copy button. */
function NewSecret({ created, onDone }: { created: TokenCreateResponse; onDone: () => void }) {
  async function onCopy() {
    try {
      await copyText(created.secret);
      toast({ title: 'Token copied', description: 'Keep it somewhere safe.' });
    } catch {
      toast({ title: 'Could not copy', description: 'Select the token and copy it by hand.', variant: 'destructive' });
    }
  }
  return (
    <div className="space-y-3 rounded-md border border-yellow-500/60 bg-yellow-500/10 p-4" data-testid="new-token">
      <p role="status" className="text-sm font-medium">
        {created.message}
      </p>
      <code className="block break-all rounded bg-muted p-2 text-sm" data-testid="token-secret">
        {created.secret}
      </code>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={onCopy}>
          <Copy aria-hidden="true" />
          Copy token
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          I have saved it
        </Button>
      </div>
    </div>
  );
}

function RevokeButton({ token }: { token: ApiTokenSummary }) {
  const revoke = useRevokeToken();
  const [open, setOpen] = useState(false);
  async function onRevoke() {
    try {
      await revoke.mutateAsync(token.id);
      setOpen(false);
      toast({ title: 'Token revoked', description: `${token.name} no longer works.` });
    } catch (err) {
      toast({ title: 'Token not revoked', description: errorMessage(err), variant: 'destructive' });
    }
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Revoke ${token.name}`}>
          Revoke
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Revoke “{token.name}”?</DialogTitle>
        <DialogDescription>Anything using this token stops working at once. This cannot be undone.</DialogDescription>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={onRevoke} disabled={revoke.isPending}>
            {revoke.isPending ? 'Revoking...' : 'Revoke token'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Access tokens for the public API: create (secret shown once), list, revoke. `teamAdmin`: the
 * caller owns or runs a team, so a token may act for the team (the page asks the team feature).
 */
export function TokensSection({ teamAdmin }: { teamAdmin: boolean }) {
  const tokens = useTokens();
  const [created, setCreated] = useState<TokenCreateResponse | null>(null);
  const list = tokens.data?.tokens ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3">Access tokens</CardTitle>
        <CardDescription>
          Send a token as <code>Authorization: Bearer &lt;token&gt;</code>. It can only do what its scopes allow, and never reaches your account settings.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : <CreateTokenForm teamAdmin={teamAdmin} onCreated={setCreated} />}
        {tokens.isLoading ? (
          <Skeleton className="h-14 w-full" />
        ) : tokens.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(tokens.error, 'Could not load your tokens.')}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No tokens yet.</p>
        ) : (
          <ul className="divide-y divide-border rounded-md border border-border" aria-label="Your access tokens">
            {list.map((t) => (
              <li key={t.id} className="flex flex-wrap items-center gap-3 p-3" data-testid="token-row">
                <KeyRound className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                <div className="min-w-0 flex-1 space-y-1">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                    <span className="break-all">{t.name}</span>
                    <code className="text-xs text-muted-foreground">{t.prefix}…</code>
                    {t.teamId ? <Badge variant="blue">Team</Badge> : null}
                    {t.expired ? <Badge variant="red">Expired</Badge> : null}
                  </p>
                  <p className="flex flex-wrap gap-1">
                    {t.scopes.map((s) => (
                      <Badge key={s} variant="grey">
                        {s}
                      </Badge>
                    ))}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Last used {when(t.lastUsedAt, 'never')} · {t.expired ? 'expired' : 'expires'} {when(t.expiresAt, 'never')}
                  </p>
                </div>
                <RevokeButton token={t} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
