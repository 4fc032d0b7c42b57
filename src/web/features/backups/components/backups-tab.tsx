import { DatabaseBackup } from 'lucide-react';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { formatDateTime } from '#web/lib/format';
import { cn } from '#web/lib/utils';
import { formatBytes, useBackUpNow, useBackups } from '#web/features/backups/api';

/** A table cell that becomes a labelled row on a phone (its label from data-label), as in the outbox. */
const STACKED_CELL =
  'max-md:flex max-md:items-start max-md:gap-3 max-md:px-3 max-md:py-1.5 max-md:before:w-20 max-md:before:shrink-0 max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]';

/** Staff: the backups of the embedded database, newest first, and "Back up now" (issue 38). */
export function BackupsTab() {
  const backups = useBackups();
  const now = useBackUpNow();
  const data = backups.data;
  const busy = now.isPending || !!data?.running;
  return (
    <div className="space-y-4" data-testid="backups-tab">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl space-y-1 text-sm text-muted-foreground">
          {data && !data.available ? (
            <p>This site runs on PostgreSQL: back it up with pg_dump or your provider&apos;s backups (see the operations guide, &quot;Backups&quot;).</p>
          ) : (
            <>
              <p>
                A backup holds the database and every stored file. It is written while the site keeps serving; restore one with{' '}
                <code className="font-mono">npm run restore -- FILE</code>.
              </p>
              {data ? (
                <p>
                  Saved in <span className="font-mono break-all">{data.directory}</span>
                  {data.everyHours > 0 ? `, every ${data.everyHours} hours` : ', on demand only'}; the newest {data.keep} are kept.
                </p>
              ) : null}
            </>
          )}
        </div>
        <Button onClick={() => now.mutate()} disabled={busy || (data ? !data.available : true)}>
          <DatabaseBackup aria-hidden="true" className={cn(busy && 'animate-pulse')} />
          {busy ? 'Backing up...' : 'Back up now'}
        </Button>
      </div>

      <Card className="md:overflow-x-auto">
        <table className="w-full text-sm md:min-w-[640px]">
          <thead className="border-b border-border text-left text-muted-foreground max-md:sr-only">
            <tr>
              <th scope="col" className="p-3 font-medium">Taken</th>
              <th scope="col" className="p-3 font-medium">Size</th>
              <th scope="col" className="p-3 font-medium">Files</th>
              <th scope="col" className="p-3 font-medium">Pause</th>
              <th scope="col" className="p-3 font-medium">Where</th>
              <th scope="col" className="p-3 font-medium">Name</th>
            </tr>
          </thead>
          <tbody>
            {backups.isLoading ? (
              <tr>
                <td colSpan={6} className="p-3">
                  <Skeleton className="h-24 w-full" />
                </td>
              </tr>
            ) : null}
            {backups.isError ? (
              <tr>
                <td colSpan={6} className="p-6 text-center text-destructive" role="alert">
                  {errorMessage(backups.error, 'Could not load the backups.')}
                </td>
              </tr>
            ) : null}
            {data && data.backups.length === 0 ? (
              <tr>
                <td colSpan={6} className="p-6 text-center text-muted-foreground">
                  No backups yet.
                </td>
              </tr>
            ) : null}
            {data?.backups.map((b) => (
              <tr key={b.name} className="border-b border-border last:border-0 max-md:block max-md:py-2" data-testid="backup-row">
                <td data-label="Taken" className={cn(STACKED_CELL, 'p-3 md:whitespace-nowrap')}>
                  {formatDateTime(b.createdAt)}
                  {b.trigger === 'schedule' ? <span className="text-muted-foreground"> · scheduled</span> : null}
                </td>
                <td data-label="Size" className={cn(STACKED_CELL, 'p-3 md:whitespace-nowrap')}>{formatBytes(b.sizeBytes)}</td>
                <td data-label="Files" className={cn(STACKED_CELL, 'p-3')}>{b.files ?? '—'}</td>
                <td data-label="Pause" className={cn(STACKED_CELL, 'p-3 md:whitespace-nowrap')}>{b.pauseMs === null ? '—' : `${b.pauseMs} ms`}</td>
                <td data-label="Where" className={cn(STACKED_CELL, 'p-3')}>
                  <Badge variant={b.inBucket ? 'green' : 'grey'}>{b.inBucket ? 'Disk and bucket' : 'Disk'}</Badge>
                </td>
                <td data-label="Name" className={cn(STACKED_CELL, 'p-3 font-mono break-all')}>{b.name}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
