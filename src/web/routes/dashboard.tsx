import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { Copy } from 'lucide-react';
import { usePageTitle } from '#web/lib/use-page-title';
import { errorMessage } from '#web/lib/api';
import { RequireAuth } from '#web/components/require-auth';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { useProfile, useVisitStats } from '#web/features/profile/api';
import { useCards } from '#web/features/designs/api';
import { useMyOrders } from '#web/features/orders/api';
import { copyProfileLink } from '#web/features/profile/components/share-panel';
import { DashboardOverview } from '#web/features/profile/components/dashboard-overview';
import { ProfileSummary } from '#web/features/profile/components/profile-summary';
import { MyCards } from '#web/features/designs/components/my-cards';
import { VisitAnalytics } from '#web/features/profile/components/visit-analytics';
import { LeadsTab } from '#web/features/engagement/components/leads-tab';
import { WalletButtons } from '#web/features/wallet/components/wallet-buttons';

const EngagementPanel = lazy(() => import('#web/features/engagement/components/engagement-chart'));

const DASHBOARD_TABS = ['overview', 'profile', 'card', 'analytics', 'leads'] as const;

function DashboardSkeleton() {
  return (
    <div className="space-y-6" data-testid="dashboard-loading">
      <Skeleton className="h-10 w-80" />
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}

function Dashboard() {
  const profileQ = useProfile();
  const cardsQ = useCards();
  const statsQ = useVisitStats();
  const ordersQ = useMyOrders();
  const [params, setParams] = useSearchParams();
  if (profileQ.isLoading || cardsQ.isLoading) return <DashboardSkeleton />;
  const error = profileQ.error ?? cardsQ.error;
  if (error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(error, 'Could not load your dashboard.')}
      </p>
    );
  }
  const profile = profileQ.data ?? null;
  const cards = cardsQ.data ?? [];
  const requested = params.get('tab');
  const tab = (DASHBOARD_TABS as readonly string[]).includes(requested ?? '') ? requested! : 'overview';
  const setTab = (t: string) => {
    const next = new URLSearchParams(params);
    if (t === 'overview') next.delete('tab');
    else next.set('tab', t);
    setParams(next, { replace: true });
  };
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold">Dashboard</h1>
        {profile ? (
          <Button type="button" variant="outline" onClick={() => void copyProfileLink(profile.id)}>
            <Copy aria-hidden="true" />
            Copy Profile Link
          </Button>
        ) : null}
      </div>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="flex h-auto w-full justify-start gap-1 sm:w-auto">
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="profile">Profile</TabsTrigger>
          <TabsTrigger value="card">Card</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
          <TabsTrigger value="leads">Leads</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <DashboardOverview profile={profile} cards={cards} stats={statsQ.data} orders={ordersQ.data?.orders} />
          {profile ? <WalletButtons /> : null}
        </TabsContent>
        <TabsContent value="profile">
          <ProfileSummary profile={profile} />
        </TabsContent>
        <TabsContent value="card">
          <MyCards cards={cards} />
        </TabsContent>
        <TabsContent value="analytics" className="space-y-6">
          {profile ? (
            <Suspense fallback={<Skeleton className="h-96" />}>
              <EngagementPanel />
            </Suspense>
          ) : null}
          {/* with the engagement panel's totals above, the visit tiles would repeat them (decision 37-09) */}
          <VisitAnalytics stats={statsQ.data} isLoading={statsQ.isLoading} totals={!profile} />
        </TabsContent>
        <TabsContent value="leads">
          <LeadsTab hasProfile={!!profile} />
        </TabsContent>
      </Tabs>
    </>
  );
}

export default function DashboardPage() {
  usePageTitle('Dashboard', 'Your profile status, card status and profile views.');
  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <RequireAuth>
        <Dashboard />
      </RequireAuth>
    </section>
  );
}
