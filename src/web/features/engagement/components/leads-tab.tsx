import { useState } from 'react';
import { Link } from 'react-router';
import { Download, Mail, Phone, Trash2, UserPlus } from 'lucide-react';
import type { Lead } from '#shared/schemas/engagement';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Button, buttonVariants } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Checkbox } from '#web/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog';
import { Skeleton } from '#web/components/ui/skeleton';
import { LEADS_PAGE_SIZE, useDeleteLead, useLeads, useSetLeadForm } from '#web/features/engagement/api';
import { getLeadsCsv, getLeadsVcf } from '#shared/contracts/engagement';
import { endpointHref } from '#web/lib/endpoint';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The dashboard's Leads tab: the contacts visitors left on the public profile, the switch for
 * the contact exchange form, CSV and contact-file exports, and deleting a lead.
 */
export function LeadsTab({ hasProfile }: { hasProfile: boolean }) {
  const [page, setPage] = useState(0);
  const leads = useLeads(page, hasProfile);
  const setForm = useSetLeadForm();
  const del = useDeleteLead();
  const [confirm, setConfirm] = useState<Lead | null>(null);

  if (!hasProfile) {
    return (
      <Card>
        <CardHeader>
          <CardTitle as="h2">Leads</CardTitle>
          <CardDescription>Create your profile first: visitors of your public page can then share their contact details with you.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild variant="gold">
            <Link to="/profile">Create your profile</Link>
          </Button>
        </CardContent>
      </Card>
    );
  }

  const data = leads.data;
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / LEADS_PAGE_SIZE));

  async function toggleForm(enabled: boolean) {
    try {
      await setForm.mutateAsync(enabled);
      toast({ title: enabled ? 'Contact exchange is on' : 'Contact exchange is off', description: enabled ? 'Visitors can share their details with you.' : 'Your public profile no longer shows the form.' });
    } catch (err) {
      toast({ title: 'Could not change the setting', description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function onDelete(lead: Lead) {
    try {
      await del.mutateAsync(lead.id);
      setConfirm(null);
      toast({ title: 'Lead deleted', description: `${lead.name} was removed from your leads.` });
      if (page > 0 && (data?.leads.length ?? 0) <= 1) setPage(page - 1);
    } catch (err) {
      toast({ title: 'Could not delete the lead', description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <Card>
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="space-y-1.5">
            <CardTitle as="h2">Leads</CardTitle>
            <CardDescription>People who shared their contact details with you on your public profile.</CardDescription>
          </div>
          <div className="flex flex-wrap gap-2">
            <a
              href={endpointHref(getLeadsCsv)}
              download
              className={buttonVariants({ variant: 'outline', size: 'sm', className: total ? '' : 'pointer-events-none opacity-50' })}
              aria-disabled={!total}
            >
              <Download aria-hidden="true" /> Export CSV
            </a>
            <a
              href={endpointHref(getLeadsVcf)}
              download
              className={buttonVariants({ variant: 'outline', size: 'sm', className: total ? '' : 'pointer-events-none opacity-50' })}
              aria-disabled={!total}
            >
              <UserPlus aria-hidden="true" /> Export contacts (.vcf)
            </a>
          </div>
        </div>
        <label className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
          <Checkbox
            checked={data?.formEnabled ?? false}
            disabled={!data || setForm.isPending}
            onCheckedChange={(v) => toggleForm(v === true)}
            aria-label="Show the contact exchange form on my public profile"
          />
          <span>
            <span className="font-medium">Show the contact exchange form on my public profile</span>
            <span className="block text-muted-foreground">Visitors can leave their name, e-mail, phone, company and a note. You get an e-mail for each.</span>
          </span>
        </label>
      </CardHeader>
      <CardContent className="space-y-4">
        {leads.isLoading ? (
          <div className="space-y-2">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : leads.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(leads.error, 'Could not load your leads.')}
          </p>
        ) : !total ? (
          <p className="rounded-md border border-dashed border-border p-6 text-center text-sm text-muted-foreground" data-testid="leads-empty">
            No leads yet. When a visitor shares their details on your public profile, they appear here.
          </p>
        ) : (
          <>
            <p className="text-sm text-muted-foreground" data-testid="leads-total">
              {total} {total === 1 ? 'lead' : 'leads'}
            </p>
            <ul className="divide-y divide-border rounded-md border border-border" aria-label="Leads">
              {data!.leads.map((l) => (
                <li key={l.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start" data-testid="lead-row">
                  <div className="min-w-0 flex-1 space-y-1">
                    <p className="font-medium">
                      {l.name}
                      {l.company ? <span className="font-normal text-muted-foreground"> · {l.company}</span> : null}
                    </p>
                    <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                      {l.email ? (
                        <a className="inline-flex items-center gap-1 underline-offset-4 hover:underline" href={`mailto:${l.email}`}>
                          <Mail className="size-3.5" aria-hidden="true" /> {l.email}
                        </a>
                      ) : null}
                      {l.phone ? (
                        <a className="inline-flex items-center gap-1 underline-offset-4 hover:underline" href={`tel:${l.phone.replace(/[^0-9+]/g, '')}`}>
                          <Phone className="size-3.5" aria-hidden="true" /> {l.phone}
                        </a>
                      ) : null}
                    </p>
                    {l.note ? <p className="whitespace-pre-line break-words text-sm text-muted-foreground">{l.note}</p> : null}
                    <p className="text-xs text-muted-foreground">Received {when(l.createdAt)}</p>
                  </div>
                  <Button variant="ghost" size="sm" onClick={() => setConfirm(l)} aria-label={`Delete lead ${l.name}`}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ul>
            {pages > 1 ? (
              <div className="flex items-center justify-between gap-2">
                <Button variant="outline" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
                  Previous
                </Button>
                <span className="text-sm text-muted-foreground">
                  Page {page + 1} of {pages}
                </span>
                <Button variant="outline" size="sm" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                  Next
                </Button>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
      <Dialog open={!!confirm} onOpenChange={(o) => !o && setConfirm(null)}>
        <DialogContent>
          <DialogTitle>Delete this lead?</DialogTitle>
          <DialogDescription>{confirm ? `${confirm.name}'s details will be removed for good.` : ''}</DialogDescription>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button variant="destructive" disabled={del.isPending} onClick={() => confirm && onDelete(confirm)}>
              {del.isPending ? 'Deleting...' : 'Delete'}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
