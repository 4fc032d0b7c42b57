import { useId, useState } from 'react';
import { Download } from 'lucide-react';
import { getTeamAuditCsv } from '#shared/contracts/audit';
import { IDENTITY_EVENT_KINDS, IDENTITY_EVENT_LABELS, type AuditListResponse, type IdentityEventKind } from '#shared/schemas/audit';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { STACKED_CELL, STACKED_HEAD, STACKED_ROW } from '#web/components/ui/stacked-table';
import { cn } from '#web/lib/utils';
import { endpointHref } from '#web/lib/endpoint';
import { useAdminAudit, useExportAdminAudit, useTeamAudit } from '#web/features/audit/api';

const label = (kind: string) => IDENTITY_EVENT_LABELS[kind as IdentityEventKind] ?? kind;

function detailText(detail: Record<string, string | number | boolean | null>): string {
  return Object.entries(detail)
    .filter(([k]) => k !== 'token')
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(' · ');
}

/** One page of entries as a table (on a phone each entry is a stack of labelled rows), with paging. */
function AuditTable({ data, page, onPage, loading }: { data: AuditListResponse | undefined; page: number; onPage: (p: number) => void; loading: boolean }) {
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  if (loading || !data) return <Skeleton className="h-32 w-full" />;
  if (!data.events.length) return <p className="text-sm text-muted-foreground">No entries yet.</p>;
  return (
    <>
      <table className="w-full text-left text-sm md:min-w-[720px]" data-testid="audit-log">
        <thead className={STACKED_HEAD}>
          <tr className="border-b text-xs uppercase text-muted-foreground">
            <th className="py-2 pr-3">Time (UTC)</th>
            <th className="py-2 pr-3">Event</th>
            <th className="py-2 pr-3">Who</th>
            <th className="py-2 pr-3">IP address</th>
            <th className="py-2">Detail</th>
          </tr>
        </thead>
        <tbody>
          {data.events.map((e) => (
            <tr key={e.id} className={cn('border-b align-top', STACKED_ROW)} data-kind={e.kind}>
              <td data-label="Time (UTC)" className={cn('whitespace-nowrap py-2 pr-3 font-mono text-xs', STACKED_CELL)}>{e.at.replace('T', ' ').slice(0, 19)}</td>
              <td data-label="Event" className={cn('py-2 pr-3', STACKED_CELL)}>
                <span>
                  <span className="font-medium">{label(e.kind)}</span>{' '}
                  {e.outcome === 'failure' ? <Badge variant="red">failed</Badge> : null}
                </span>
              </td>
              <td data-label="Who" className={cn('break-all py-2 pr-3', STACKED_CELL)}>{e.email ?? '—'}</td>
              <td data-label="IP address" className={cn('py-2 pr-3 font-mono text-xs', STACKED_CELL)}>{e.ip || '—'}</td>
              <td data-label="Detail" className={cn('break-words py-2 text-xs text-muted-foreground', STACKED_CELL)}>{detailText(e.detail)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages > 1 ? (
        <div className="mt-3 flex items-center gap-2">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <span className="text-sm">
            Page {page} of {pages}
          </span>
          <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </div>
      ) : null}
    </>
  );
}

function KindSelect({ value, onChange }: { value: IdentityEventKind | ''; onChange: (v: IdentityEventKind | '') => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Event
      </label>
      <select id={id} className="h-9 rounded-md border bg-background px-2 text-sm" value={value} onChange={(e) => onChange(e.target.value as IdentityEventKind | '')}>
        <option value="">All events</option>
        {IDENTITY_EVENT_KINDS.map((k) => (
          <option key={k} value={k}>
            {IDENTITY_EVENT_LABELS[k]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The team owner's audit log: sign-ins of the members, their factors, SSO and SCIM (issue 39). */
export function TeamAuditLog() {
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<IdentityEventKind | ''>('');
  const { data, isLoading } = useTeamAudit(page, kind || undefined);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle as="h2">Audit log {data ? `(${data.total})` : ''}</CardTitle>
          <CardDescription>
            Sign-ins and failures, two-factor and passkey changes, single sign-on and directory provisioning of your team.
            {data ? ` Entries are kept ${data.retentionDays} days.` : ''}
          </CardDescription>
        </div>
        <Button asChild variant="outline">
          <a href={endpointHref(getTeamAuditCsv, { query: { kind: kind || undefined } })} download data-testid="audit-csv">
            <Download /> Export CSV
          </a>
        </Button>
      </CardHeader>
      <CardContent className="space-y-3 md:overflow-x-auto" tabIndex={0} role="region" aria-label="Audit log">
        <KindSelect
          value={kind}
          onChange={(v) => {
            setKind(v);
            setPage(1);
          }}
        />
        <AuditTable data={data} page={page} onPage={setPage} loading={isLoading} />
      </CardContent>
    </Card>
  );
}

/** The staff's audit log: every team and account, by event and address (issue 39). */
export function AdminAuditLog() {
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<IdentityEventKind | ''>('');
  const [email, setEmail] = useState('');
  const [search, setSearch] = useState('');
  const emailId = useId();
  const { data, isLoading } = useAdminAudit(page, kind || undefined, search || undefined);
  const exportCsv = useExportAdminAudit();
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle as="h2">Identity audit log {data ? `(${data.total})` : ''}</CardTitle>
          <CardDescription>Every account and team. {data ? `Entries are kept ${data.retentionDays} days (AUDIT_LOG_RETENTION_DAYS).` : ''}</CardDescription>
        </div>
        {/* fetched, not a link: a stale session is asked "Confirm it is you" first (decision 39-05) */}
        <Button type="button" variant="outline" onClick={() => exportCsv.mutate(kind || undefined)} disabled={exportCsv.isPending} data-testid="admin-audit-csv">
          <Download /> {exportCsv.isPending ? 'Exporting…' : 'Export CSV'}
        </Button>
      </CardHeader>
      <CardContent className="space-y-3 md:overflow-x-auto" tabIndex={0} role="region" aria-label="Identity audit log">
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(email.trim());
            setPage(1);
          }}
        >
          <KindSelect
            value={kind}
            onChange={(v) => {
              setKind(v);
              setPage(1);
            }}
          />
          <div className="flex flex-col gap-1">
            <label htmlFor={emailId} className="text-sm font-medium">
              E-mail address
            </label>
            <Input id={emailId} type="search" value={email} maxLength={254} onChange={(e) => setEmail(e.target.value)} placeholder="name@company.com" />
          </div>
          <Button type="submit" variant="outline">
            Search
          </Button>
        </form>
        <AuditTable data={data} page={page} onPage={setPage} loading={isLoading} />
      </CardContent>
    </Card>
  );
}
