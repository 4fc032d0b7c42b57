import { Laptop, Smartphone } from 'lucide-react';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { useRevokeOtherSessions, useSessions } from '#web/features/account/api';

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

export function timeAgo(iso: string, now = Date.now()): string {
  const secs = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(secs);
  if (abs < 60) return 'just now';
  if (abs < 3600) return rtf.format(Math.round(secs / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(secs / 3600), 'hour');
  return rtf.format(Math.round(secs / 86400), 'day');
}

export function SessionsCard() {
  const sessions = useSessions();
  const revoke = useRevokeOtherSessions();
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current).length;

  async function onRevoke() {
    try {
      const res = await revoke.mutateAsync();
      toast({ title: 'Signed out elsewhere', description: res.message });
    } catch (err) {
      toast({ title: 'Could not sign out other devices', description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Where you are signed in</CardTitle>
        <CardDescription>Devices and browsers with an active session. Don't recognise one? Sign out everywhere else and change your password.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {sessions.isLoading ? (
          <div className="space-y-2">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : sessions.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(sessions.error, 'Could not load your sessions.')}
          </p>
        ) : (
          <ul className="divide-y divide-border rounded-md border border-border" aria-label="Active sessions">
            {list.map((s) => {
              const Icon = /iOS|Android/.test(s.device) ? Smartphone : Laptop;
              return (
                <li key={s.id} className="flex items-center gap-3 p-3" data-testid="session-row">
                  <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                      {s.device}
                      {s.current ? <Badge variant="green">This device</Badge> : null}
                    </p>
                    <p className="text-xs break-words text-muted-foreground">
                      {s.ip ? `${s.ip} · ` : ''}active {timeAgo(s.lastSeenAt)} · signed in {new Date(s.createdAt).toLocaleDateString()}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        <Button variant="outline" onClick={onRevoke} disabled={revoke.isPending || others === 0}>
          {revoke.isPending ? 'Signing out...' : 'Sign out everywhere else'}
        </Button>
      </CardContent>
    </Card>
  );
}
