import { useState } from 'react';
import { Download } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { STACKED_CELL, STACKED_HEAD, STACKED_ROW } from '#web/components/ui/stacked-table';
import { cn } from '#web/lib/utils';
import { TEAM_LEADS_PAGE, useTeamLeads } from '#web/features/team/api';
import { getTeamLeadsCsv } from '#shared/contracts/team';
import { endpointHref } from '#web/lib/endpoint';

/** Leads: every contact the members collected, with who collected it; the CSV imports into a CRM as it is. */
export function LeadsTab() {
  const [page, setPage] = useState(0);
  const { data, isLoading } = useTeamLeads(page);
  const pages = data ? Math.max(1, Math.ceil(data.total / TEAM_LEADS_PAGE)) : 1;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle as="h2">Leads {data ? `(${data.total})` : ''}</CardTitle>
          <CardDescription>The CSV has HubSpot&apos;s contact import columns (First Name, Last Name, Email, Phone Number, Company Name, Job Title) and the team member.</CardDescription>
        </div>
        <Button asChild variant="outline">
          <a href={endpointHref(getTeamLeadsCsv)} download data-testid="team-leads-csv">
            <Download /> Export CSV
          </a>
        </Button>
      </CardHeader>
      <CardContent className="md:overflow-x-auto" tabIndex={0} role="region" aria-label="Team leads">
        {isLoading || !data ? (
          <Skeleton className="h-32 w-full" />
        ) : !data.leads.length ? (
          <p className="text-sm text-muted-foreground">No leads yet. When a visitor shares their details on a member&apos;s page, they appear here.</p>
        ) : (
          <table className="w-full text-left text-sm md:min-w-[640px]" data-testid="team-leads">
            <thead className={STACKED_HEAD}>
              <tr className="border-b text-xs uppercase text-muted-foreground">
                <th className="py-2 pr-3">Name</th>
                <th className="py-2 pr-3">Contact</th>
                <th className="py-2 pr-3">Company</th>
                <th className="py-2 pr-3">Collected by</th>
                <th className="py-2">Date</th>
              </tr>
            </thead>
            <tbody>
              {data.leads.map((l) => (
                <tr key={l.id} className={cn('border-b align-top', STACKED_ROW)}>
                  <td data-label="Name" className={cn('py-2 pr-3 font-medium', STACKED_CELL)}>{l.name}</td>
                  <td data-label="Contact" className={cn('py-2 pr-3 break-all', STACKED_CELL)}>{[l.email, l.phone].filter(Boolean).join(' · ')}</td>
                  <td data-label="Company" className={cn('py-2 pr-3', STACKED_CELL)}>{l.company}</td>
                  <td data-label="Collected by" className={cn('py-2 pr-3', STACKED_CELL)}>{l.memberName}</td>
                  <td data-label="Date" className={cn('py-2', STACKED_CELL)}>{new Date(l.createdAt).toLocaleDateString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {pages > 1 ? (
          <div className="mt-3 flex items-center gap-2">
            <Button size="sm" variant="outline" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <span className="text-sm">
              Page {page + 1} of {pages}
            </span>
            <Button size="sm" variant="outline" disabled={page + 1 >= pages} onClick={() => setPage((p) => p + 1)}>
              Next
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
