import { useState, type FormEvent } from 'react';
import { MailPlus, Upload } from 'lucide-react';
import { TEAM_ROLE_LABELS, type TeamInviteReport, type TeamMember, type TeamRole } from '#shared/schemas/team';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input, Select } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { STACKED_CELL, STACKED_HEAD, STACKED_ROW } from '#web/components/ui/stacked-table';
import { cn } from '#web/lib/utils';
import { fieldErrors } from '#web/lib/api';
import { useChangeRole, useDeleteTeam, useImportMembers, useInvite, useRemoveMember, useResendInvite, useRevokeInvite, useTeamMembers, useTransferTeam } from '#web/features/team/api';
import { done, failed } from '#web/features/team/notify';

const CARD_LABEL: Record<TeamMember['cardStatus'], [string, 'grey' | 'yellow' | 'green' | 'red']> = {
  none: ['No card yet', 'grey'],
  pending: ['In review', 'yellow'],
  approved: ['Approved', 'green'],
  rejected: ['Needs changes', 'red'],
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }) : '—');

function InviteForm() {
  const invite = useInvite();
  const [v, setV] = useState({ email: '', fullName: '', jobTitle: '', role: 'member' as 'member' | 'admin' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      const r = await invite.mutateAsync([{ email: v.email, fullName: v.fullName || null, jobTitle: v.jobTitle || null, role: v.role }]);
      if (r.refused.length) return failed(new Error(r.refused[0].reason), 'Not invited');
      done('Invitation sent', `${v.email} has 7 days to accept.`);
      setV({ email: '', fullName: '', jobTitle: '', role: 'member' });
    } catch (err) {
      const f = fieldErrors(err);
      setErrors(Object.fromEntries(Object.entries(f).map(([k, m]) => [k.replace(/^invites\.0\./, ''), m])));
      failed(err, 'Not invited');
    }
  }
  return (
    <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-3 sm:grid-cols-[2fr_2fr_2fr_auto_auto] sm:items-end" aria-label="Invite a person">
      <FormField id="invite-email" label="E-mail" required error={errors.email}>
        <Input id="invite-email" type="email" value={v.email} onChange={(e) => setV({ ...v, email: e.target.value })} aria-invalid={!!errors.email} />
      </FormField>
      <FormField id="invite-name" label="Name" error={errors.fullName}>
        <Input id="invite-name" value={v.fullName} onChange={(e) => setV({ ...v, fullName: e.target.value })} />
      </FormField>
      <FormField id="invite-title" label="Job title" error={errors.jobTitle}>
        <Input id="invite-title" value={v.jobTitle} onChange={(e) => setV({ ...v, jobTitle: e.target.value })} />
      </FormField>
      <FormField id="invite-role" label="Role">
        <Select id="invite-role" className="min-w-28" value={v.role} onChange={(e) => setV({ ...v, role: e.target.value as 'member' | 'admin' })}>
          <option value="member">Member</option>
          <option value="admin">Admin</option>
        </Select>
      </FormField>
      <Button type="submit" disabled={invite.isPending}>
        <MailPlus /> Invite
      </Button>
    </form>
  );
}

function ImportPanel() {
  const importCsv = useImportMembers();
  const [report, setReport] = useState<TeamInviteReport | null>(null);
  async function onFile(file: File | undefined) {
    if (!file) return;
    try {
      const r = await importCsv.mutateAsync(file);
      setReport(r);
      done(`${r.invited.length} of ${r.rows} invited`, r.refused.length ? `${r.refused.length} rows were refused: see why below.` : undefined);
    } catch (err) {
      setReport(null);
      failed(err, 'The file was not imported');
    }
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">
        A CSV file with a header row: <code>name, email, job title, phone</code> (an optional <code>role</code> column takes member or admin). Every good row is invited; each refused row is listed
        with the reason.
      </p>
      <label className="inline-flex cursor-pointer items-center gap-2 rounded-md border px-4 py-2 text-sm font-medium hover:bg-accent">
        <Upload className="size-4" aria-hidden="true" /> {importCsv.isPending ? 'Importing…' : 'Import a CSV file'}
        <input type="file" accept=".csv,text/csv" className="sr-only" data-testid="team-import" onChange={(e) => void onFile(e.target.files?.[0])} />
      </label>
      {report ? (
        <div role="status" className="rounded-md border p-3 text-sm" data-testid="import-report">
          <p className="font-medium">
            {report.invited.length} invited, {report.refused.length} refused, of {report.rows} rows.
          </p>
          {report.refused.length ? (
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {report.refused.map((r) => (
                <li key={r.row}>
                  Row {r.row} {r.email ? `(${r.email})` : ''}: {r.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function MemberRow({ m, myRole, myId }: { m: TeamMember; myRole: TeamRole; myId: string }) {
  const role = useChangeRole();
  const remove = useRemoveMember();
  const transfer = useTransferTeam();
  const manager = myRole !== 'member';
  const [label, variant] = CARD_LABEL[m.cardStatus];
  const act = (p: Promise<unknown>, ok: string) => p.then(() => done(ok)).catch((e) => failed(e));
  return (
    <tr className={cn('border-b align-top', STACKED_ROW)} data-testid="team-member">
      <td data-label="Person" className={cn('py-2 pr-3', STACKED_CELL)}>
        <div className="min-w-0">
          <div className="font-medium">{m.fullName}</div>
          <div className="break-all text-xs text-muted-foreground">{[m.jobTitle, m.email].filter(Boolean).join(' · ')}</div>
        </div>
      </td>
      <td data-label="Role" className={cn('py-2 pr-3', STACKED_CELL)}>
        {manager && m.role !== 'owner' ? (
          <Select aria-label={`Role of ${m.fullName}`} value={m.role} onChange={(e) => act(role.mutateAsync({ userId: m.userId, role: e.target.value as 'admin' | 'member' }), 'Role changed')}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </Select>
        ) : (
          TEAM_ROLE_LABELS[m.role]
        )}
      </td>
      <td data-label="Profile" className={cn('py-2 pr-3', STACKED_CELL)}>{m.profileComplete ? <Badge variant="green">Complete</Badge> : <Badge variant="grey">Incomplete</Badge>}</td>
      <td data-label="Card" className={cn('py-2 pr-3', STACKED_CELL)}>
        <div>
          <Badge variant={variant}>{label}</Badge>
          {m.cardStatus !== 'none' ? <div className="text-xs text-muted-foreground">{m.cardActive ? 'Card link on' : 'Card link off'}</div> : null}
        </div>
      </td>
      <td data-label="Last active" className={cn('py-2 pr-3 text-sm', STACKED_CELL)}>{when(m.lastActiveAt)}</td>
      <td data-label="Actions" className={cn('py-2 text-right', STACKED_CELL)}>
        <div className="flex flex-wrap justify-end gap-1 max-md:justify-start">
          {myRole === 'owner' && m.userId !== myId ? (
            <Button size="sm" variant="ghost" onClick={() => window.confirm(`Make ${m.fullName} the owner of the team? You become an admin.`) && act(transfer.mutateAsync(m.userId), 'Ownership transferred')}>
              Make owner
            </Button>
          ) : null}
          {(manager && m.role !== 'owner') || (m.userId === myId && m.role !== 'owner') ? (
            <Button
              size="sm"
              variant="outline"
              onClick={() =>
                window.confirm(m.userId === myId ? 'Leave the team?' : `Remove ${m.fullName} from the team? Their team card is turned off; they keep their account.`) &&
                act(remove.mutateAsync(m.userId), m.userId === myId ? 'You left the team' : `${m.fullName} was removed`)
              }
            >
              {m.userId === myId ? 'Leave' : 'Remove'}
            </Button>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

/** Members: invite (one, or a CSV file), the list with roles and card status, open invitations. */
export function MembersTab({ role, myId }: { role: TeamRole; myId: string }) {
  const { data, isLoading } = useTeamMembers();
  const resend = useResendInvite();
  const revoke = useRevokeInvite();
  const manager = role !== 'member';
  return (
    <div className="space-y-6">
      {manager ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Invite people</CardTitle>
            <CardDescription>They get an e-mail with a link that works once, for 7 days, with a new or an existing account.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <InviteForm />
            <ImportPanel />
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle as="h2">Members {data ? `(${data.members.length})` : ''}</CardTitle>
        </CardHeader>
        <CardContent className="md:overflow-x-auto" tabIndex={0} role="region" aria-label="Members">
          {isLoading || !data ? (
            <Skeleton className="h-32 w-full" />
          ) : (
            <table className="w-full text-left text-sm md:min-w-[640px]">
              <thead className={STACKED_HEAD}>
                <tr className="border-b text-xs uppercase text-muted-foreground">
                  <th className="py-2 pr-3">Person</th>
                  <th className="py-2 pr-3">Role</th>
                  <th className="py-2 pr-3">Profile</th>
                  <th className="py-2 pr-3">Card</th>
                  <th className="py-2 pr-3">Last active</th>
                  <th className="py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.members.map((m) => (
                  <MemberRow key={m.userId} m={m} myRole={role} myId={myId} />
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
      {manager && data?.invites.length ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Invitations ({data.invites.length})</CardTitle>
          </CardHeader>
          <CardContent className="md:overflow-x-auto" tabIndex={0} role="region" aria-label="Invitations">
            <table className="w-full text-left text-sm md:min-w-[560px]">
              <tbody>
                {data.invites.map((i) => (
                  <tr key={i.id} className={cn('border-b', STACKED_ROW)} data-testid="team-invite">
                    <td className="py-2 pr-3 max-md:block">
                      <div className="break-all font-medium">{i.email}</div>
                      <div className="text-xs text-muted-foreground">{[i.fullName, i.jobTitle, TEAM_ROLE_LABELS[i.role]].filter(Boolean).join(' · ')}</div>
                    </td>
                    <td className="py-2 pr-3 max-md:block">{i.status === 'expired' ? <Badge variant="red">Expired</Badge> : <Badge variant="yellow">Waiting until {when(i.expiresAt)}</Badge>}</td>
                    <td className="py-2 text-right max-md:block max-md:text-left">
                      <Button size="sm" variant="ghost" onClick={() => resend.mutateAsync(i.id).then(() => done('Invitation sent again')).catch((e) => failed(e))}>
                        Resend
                      </Button>
                      <Button size="sm" variant="outline" onClick={() => revoke.mutateAsync(i.id).then(() => done('Invitation revoked')).catch((e) => failed(e))}>
                        Revoke
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
      ) : null}
      {role === 'owner' ? <DeleteTeam /> : null}
    </div>
  );
}

/** The owner's last resort: the team is deleted; members keep their accounts, profiles and leads. */
function DeleteTeam() {
  const remove = useDeleteTeam();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-destructive/40 p-4 text-sm">
      <p>Deleting the team turns off its card links and removes the brand from every profile. Members keep their accounts, profiles and leads.</p>
      <Button
        variant="destructive"
        size="sm"
        disabled={remove.isPending}
        onClick={() => window.confirm('Delete the team for everyone? This cannot be undone.') && remove.mutateAsync().then(() => done('The team was deleted')).catch((e) => failed(e))}
      >
        Delete team
      </Button>
    </div>
  );
}
