import { useSearchParams } from 'react-router';
import { Users } from 'lucide-react';
import { TEAM_ROLE_LABELS, type TeamRole } from '#shared/schemas/team';
import { Badge } from '#web/components/ui/badge';
import { Skeleton } from '#web/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { usePageTitle } from '#web/lib/use-page-title';
import { RequireAuth } from '#web/components/require-auth';
import { useAuth } from '#web/lib/session/use-auth';
import { useTeam } from '#web/features/team/api';
import { CreateTeamForm } from '#web/features/team/components/create-team-form';
import { MembersTab } from '#web/features/team/components/members-tab';
import { BrandTab } from '#web/features/team/components/brand-tab';
import { CardsTab } from '#web/features/team/components/cards-tab';
import { AnalyticsTab } from '#web/features/team/components/analytics-tab';
import { LeadsTab } from '#web/features/team/components/leads-tab';
import { useTemplates } from '#web/features/templates/api';
import { ProvisioningTab } from '#web/features/scim/components/provisioning-tab';
import { SsoTab } from '#web/features/sso/components/sso-tab';
import { TeamAuditLog } from '#web/features/audit/components/audit-log';
import type { TeamInfo } from '#shared/schemas/team';

const TABS = [
  { id: 'members', label: 'Members', roles: ['owner', 'admin', 'member'] },
  { id: 'brand', label: 'Brand', roles: ['owner', 'admin'] },
  { id: 'cards', label: 'Cards', roles: ['owner', 'admin'] },
  { id: 'analytics', label: 'Analytics', roles: ['owner', 'admin'] },
  { id: 'leads', label: 'Leads', roles: ['owner', 'admin'] },
  { id: 'provisioning', label: 'Provisioning', roles: ['owner'] },
  { id: 'sso', label: 'Single sign-on', roles: ['owner'] },
  { id: 'audit', label: 'Audit log', roles: ['owner'] },
] as const satisfies readonly { id: string; label: string; roles: readonly TeamRole[] }[];

/** The Brand tab with the card templates to choose from (asked only when the tab is shown). */
function BrandWithTemplates({ team }: { team: TeamInfo }) {
  const templates = useTemplates();
  return <BrandTab team={team} templates={templates.data ?? []} />;
}

function TeamScreen() {
  const { user } = useAuth();
  const { data, isLoading } = useTeam();
  const [params, setParams] = useSearchParams();
  if (isLoading || !data) return <Skeleton className="h-64 w-full" />;
  if (!data.team || !data.role) return <CreateTeamForm />;
  const { team, role } = data;
  const tabs = TABS.filter((t) => (t.roles as readonly string[]).includes(role));
  const tab = tabs.some((t) => t.id === params.get('tab')) ? params.get('tab')! : 'members';
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-center gap-3">
        {team.brand.logoUrl ? <img src={team.brand.logoUrl} alt="" className="h-10 max-w-32 object-contain" /> : <Users aria-hidden="true" />}
        <h1 className="text-3xl font-bold tracking-tight">{team.name}</h1>
        <Badge variant="outline">{TEAM_ROLE_LABELS[role]}</Badge>
        <span className="text-sm text-muted-foreground">
          {data.memberCount} {data.memberCount === 1 ? 'member' : 'members'}
        </span>
      </header>
      <Tabs value={tab} onValueChange={(t) => setParams({ tab: t }, { replace: true })}>
        <TabsList className="w-full sm:w-auto">
          {tabs.map((t) => (
            <TabsTrigger key={t.id} value={t.id}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="members">
          <MembersTab role={role} myId={user?.id ?? ''} />
        </TabsContent>
        {role !== 'member' ? (
          <>
            <TabsContent value="brand">
              <BrandWithTemplates key={team.id} team={team} />
            </TabsContent>
            <TabsContent value="cards">
              <CardsTab defaultAddress={team.address ?? ''} />
            </TabsContent>
            <TabsContent value="analytics">
              <AnalyticsTab />
            </TabsContent>
            <TabsContent value="leads">
              <LeadsTab />
            </TabsContent>
            {role === 'owner' ? (
              <>
                <TabsContent value="provisioning">
                  <ProvisioningTab />
                </TabsContent>
                <TabsContent value="sso">
                  <SsoTab />
                </TabsContent>
                <TabsContent value="audit">
                  <TeamAuditLog />
                </TabsContent>
              </>
            ) : null}
          </>
        ) : null}
      </Tabs>
    </div>
  );
}

/** /team: a company runs the cards of all its people (issue 21). Tabs follow the caller's role. */
export default function TeamPage() {
  usePageTitle('Team', "Brand your team's profiles, invite people, order everyone's cards and see the team's views and leads.");
  return (
    <RequireAuth>
      <section className="mx-auto max-w-5xl px-4 py-10">
        <TeamScreen />
      </section>
    </RequireAuth>
  );
}
