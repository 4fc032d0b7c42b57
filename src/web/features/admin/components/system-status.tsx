import { AlertTriangle, CheckCircle2, CircleDashed, CircleOff, RefreshCw, XCircle } from 'lucide-react';
import type { CheckStatus, TestingSummary } from '#shared/schemas/admin';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { cn } from '#web/lib/utils';
import { useRunLinkCheck, useTestingSummary } from '#web/features/admin/api';
import { formatDateTime } from '#web/features/admin/format';

const ICONS: Record<CheckStatus, { Icon: typeof CheckCircle2; cls: string; label: string }> = {
  pass: { Icon: CheckCircle2, cls: 'text-green-500', label: 'OK' },
  warn: { Icon: AlertTriangle, cls: 'text-yellow-500', label: 'Warning' },
  fail: { Icon: XCircle, cls: 'text-red-500', label: 'Failing' },
  off: { Icon: CircleOff, cls: 'text-muted-foreground', label: 'Not configured' },
  unknown: { Icon: CircleDashed, cls: 'text-muted-foreground', label: 'Unknown' },
};

const HEALTH_CLASS: Record<string, string> = {
  Healthy: 'text-green-500',
  Degraded: 'text-yellow-500',
  Failing: 'text-red-500',
};

function lastUpdatedText(s: TestingSummary | undefined) {
  const v = s?.lastUpdated;
  if (!v || v === 'Unknown') return 'Unknown';
  return formatDateTime(v);
}

/** The testing summary: overall health, each real check, and the last link check of the site's pages. */
export function SystemStatus({ compact }: { compact?: boolean }) {
  const summary = useTestingSummary();
  const run = useRunLinkCheck();
  const s = summary.data;
  if (summary.isLoading) return <Skeleton className="h-48" />;
  return (
    <div className="space-y-3" data-testid="system-status">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm">
          System health:{' '}
          <strong className={cn(HEALTH_CLASS[s?.systemHealth ?? ''] ?? 'text-muted-foreground')} data-testid="system-health">
            {s?.systemHealth || 'Unknown'}
          </strong>
          <span className="text-muted-foreground"> · last updated {lastUpdatedText(s)}</span>
        </p>
        {!compact ? (
          <div className="flex gap-2">
            <Button size="sm" variant="outline" onClick={() => summary.refetch()} disabled={summary.isFetching}>
              <RefreshCw aria-hidden="true" className={cn(summary.isFetching && 'animate-spin')} />
              Re-check
            </Button>
            <Button size="sm" onClick={() => run.mutate()} disabled={run.isPending}>
              {run.isPending ? 'Checking links...' : 'Run link check'}
            </Button>
          </div>
        ) : null}
      </div>
      {summary.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(summary.error, 'Could not load the testing summary.')}
        </p>
      ) : null}
      <ul className="divide-y divide-border rounded-md border border-border">
        {s?.checks.map((c) => {
          const { Icon, cls, label } = ICONS[c.status] ?? ICONS.unknown;
          return (
            <li key={c.id} className="flex items-start gap-3 p-3 text-sm" data-check={c.id} data-status={c.status}>
              <Icon className={cn('mt-0.5 size-4 shrink-0', cls)} aria-label={label} />
              <div className="min-w-0">
                <p className="font-medium">
                  {c.label}
                  {typeof c.ms === 'number' ? <span className="font-normal text-muted-foreground"> · {c.ms} ms</span> : null}
                </p>
                {!compact ? <p className="text-muted-foreground break-words">{c.detail}</p> : null}
              </div>
            </li>
          );
        })}
      </ul>
      {!compact && s?.linkCheck && s.linkCheck.broken.length ? (
        <div className="text-sm">
          <p className="font-medium">Addresses that did not answer</p>
          <ul className="mt-1 space-y-1">
            {s.linkCheck.broken.map((b) => (
              <li key={b.url} className="break-all text-muted-foreground">
                <span className="font-mono">{b.status || 'no answer'}</span> {b.url}
                {b.from ? ` (linked from ${b.from})` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
