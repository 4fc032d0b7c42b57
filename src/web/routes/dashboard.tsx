import { lazy, Suspense } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BarChart3, CheckCircle2, Copy, CreditCard, ExternalLink, Eye, Monitor, Palette, QrCode as QrIcon, Smartphone, HelpCircle, UserRound, XCircle } from 'lucide-react';
import { cardType as cardTypeInfo } from '#shared/catalogue';
import { isProfileComplete, LINK_TYPE_LABELS, type Profile, type UserCard, type VisitStats } from '#shared/schemas/profile';
import { usePageTitle } from '#web/lib/use-page-title';
import { errorMessage } from '#web/lib/api';
import { cn } from '#web/lib/utils';
import { RequireAuth } from '#web/features/auth/require-auth';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { publicProfileUrl, useCards, useProfile, useVisitStats } from '#web/features/profile/api';
import { QrCode } from '#web/features/profile/components/qr-code';
import { copyProfileLink } from '#web/features/profile/components/share-panel';
import { LeadsTab } from '#web/features/engagement/components/leads-tab';

const VisitsChart = lazy(() => import('#web/features/profile/components/visits-chart'));
const EngagementPanel = lazy(() => import('#web/features/engagement/components/engagement-chart'));

const DASHBOARD_TABS = ['overview', 'profile', 'card', 'analytics', 'leads'] as const;

const LATEST_VISITS_SHOWN = 5;
const DASHBOARD_QR_SIZE = 160;

function DeviceIcon({ device }: { device: string }) {
  if (device === 'Mobile') return <Smartphone className="size-4" aria-hidden="true" />;
  if (device === 'Desktop') return <Monitor className="size-4" aria-hidden="true" />;
  return <HelpCircle className="size-4" aria-hidden="true" />;
}

function StatusBadge({ status }: { status: string }) {
  const color =
    status === 'approved' ? 'bg-green-600 text-white' : status === 'rejected' ? 'bg-red-700 text-white' : status === 'pending' ? 'bg-yellow-500 text-black' : 'bg-muted text-foreground';
  const label = status === 'pending' ? 'In review' : status[0].toUpperCase() + status.slice(1);
  return <span className={cn('inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold', color)}>{label}</span>;
}

function SummaryCard({ title, value, icon, good, testId }: { title: string; value: string; icon: React.ReactNode; good?: boolean; testId: string }) {
  return (
    <Card className="p-5" data-testid={testId}>
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-muted-foreground">{title}</p>
        {icon}
      </div>
      <p className={cn('mt-2 text-2xl font-bold', good === false && 'text-muted-foreground')}>{value}</p>
    </Card>
  );
}

function DashboardSkeleton() {
  return (
    <div className="space-y-6" data-testid="dashboard-loading">
      <Skeleton className="h-10 w-80" />
      <div className="grid gap-4 md:grid-cols-3">
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}

function CardFaces({ card, profile }: { card: UserCard; profile: Profile }) {
  return (
    <Tabs defaultValue="front" className="w-full">
      <TabsList>
        <TabsTrigger value="front">Front</TabsTrigger>
        <TabsTrigger value="back">Back with QR</TabsTrigger>
      </TabsList>
      <TabsContent value="front">
        {card.frontImageUrl ? (
          <img src={card.frontImageUrl} alt="Card front" className="aspect-[7/4] w-full max-w-md rounded-xl object-cover shadow" />
        ) : (
          <div className="flex aspect-[7/4] w-full max-w-md items-center justify-center rounded-xl bg-black text-sm text-neutral-400">Template preview unavailable</div>
        )}
      </TabsContent>
      <TabsContent value="back">
        <div className="flex flex-wrap items-center gap-6">
          {card.backImageUrl ? <img src={card.backImageUrl} alt="Card back" className="aspect-[7/4] w-full max-w-md rounded-xl object-cover shadow" /> : null}
          <QrCode text={publicProfileUrl(profile.id)} size={DASHBOARD_QR_SIZE} />
        </div>
      </TabsContent>
    </Tabs>
  );
}

function ShareActions({ profile }: { profile: Profile }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="button" size="sm" onClick={() => void copyProfileLink(profile.id)}>
        <Copy aria-hidden="true" />
        Copy Profile Link
      </Button>
      <Button asChild size="sm" variant="outline">
        <a href={`/p/${profile.id}`} target="_blank" rel="noopener">
          <ExternalLink aria-hidden="true" />
          View Public Profile
        </a>
      </Button>
      <Button asChild size="sm" variant="outline">
        <Link to="/profile?tab=share">
          <QrIcon aria-hidden="true" />
          QR Code
        </Link>
      </Button>
    </div>
  );
}

function Overview({ profile, cards, stats }: { profile: Profile | null; cards: UserCard[]; stats: VisitStats | undefined }) {
  const complete = isProfileComplete(profile);
  const card = cards[0];
  return (
    <div className="space-y-6">
      <div className="grid gap-4 md:grid-cols-3">
        <SummaryCard
          testId="profile-status"
          title="Profile status"
          value={complete ? 'Complete' : 'Incomplete'}
          good={complete}
          icon={complete ? <CheckCircle2 className="size-5 text-green-600" aria-hidden="true" /> : <XCircle className="size-5 text-muted-foreground" aria-hidden="true" />}
        />
        <SummaryCard
          testId="card-status"
          title="Card status"
          value={card ? 'Created' : 'Not Created'}
          good={!!card}
          icon={<CreditCard className="size-5 text-muted-foreground" aria-hidden="true" />}
        />
        <SummaryCard testId="profile-views" title="Profile views" value={String(stats?.totalVisits ?? 0)} icon={<Eye className="size-5 text-muted-foreground" aria-hidden="true" />} />
      </div>
      {!profile ? (
        <Card className="flex flex-col items-start gap-3 p-6">
          <h2 className="text-lg font-semibold">Create your digital profile</h2>
          <p className="text-sm text-muted-foreground">Your profile is what people see when they scan your metal card.</p>
          <Button asChild>
            <Link to="/profile">Create Profile</Link>
          </Button>
        </Card>
      ) : complete && card ? (
        <Card className="space-y-4 p-6">
          <h2 className="text-lg font-semibold">Your card</h2>
          <CardFaces card={card} profile={profile} />
          <ShareActions profile={profile} />
        </Card>
      ) : (
        <Card className="flex flex-col items-start gap-3 p-6">
          <h2 className="text-lg font-semibold">{complete ? 'Design your metal card' : 'Finish your profile'}</h2>
          <p className="text-sm text-muted-foreground">
            {complete ? 'Your profile is ready. Pick a template and submit your card design.' : 'Add your name, job title and phone number to complete your profile.'}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <Link to={complete ? '/design' : '/profile'}>{complete ? 'Design Your Card' : 'Edit Profile'}</Link>
            </Button>
            <ShareActions profile={profile} />
          </div>
        </Card>
      )}
    </div>
  );
}

function ProfileInfo({ profile }: { profile: Profile | null }) {
  if (!profile) {
    return (
      <Card className="p-6">
        <p className="text-sm text-muted-foreground">You have not created a profile yet.</p>
        <Button asChild className="mt-4">
          <Link to="/profile">Create Profile</Link>
        </Button>
      </Card>
    );
  }
  const rows: Array<[string, string | null]> = [
    ['Name', profile.fullName],
    ['Job title', profile.jobTitle],
    ['Company', profile.companyName],
    ['Email', profile.email],
    ['Phone', profile.phoneNumber],
    ['Address', profile.address],
    ['Profile style', profile.profileTemplate[0].toUpperCase() + profile.profileTemplate.slice(1)],
  ];
  return (
    <Card className="space-y-6 p-6">
      <div className="flex flex-wrap items-center gap-4">
        {profile.customPhotoUrl ? (
          <img src={profile.customPhotoUrl} alt="" className="size-16 rounded-full object-cover" />
        ) : (
          <span className="flex size-16 items-center justify-center rounded-full bg-muted">
            <UserRound className="size-8 text-muted-foreground" aria-hidden="true" />
          </span>
        )}
        <div>
          <h2 className="text-xl font-semibold">{profile.fullName}</h2>
          <p className="text-sm text-muted-foreground">{profile.jobTitle ?? 'No job title yet'}</p>
        </div>
      </div>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs uppercase tracking-wide text-muted-foreground">{k}</dt>
            <dd className="text-sm">{v || '—'}</dd>
          </div>
        ))}
      </dl>
      <div>
        <h3 className="mb-2 text-sm font-semibold">Links</h3>
        {profile.links.length ? (
          <ul className="space-y-1 text-sm">
            {profile.links.map((l) => (
              <li key={l.id}>
                <span className="font-medium">{LINK_TYPE_LABELS[l.linkType]}:</span>{' '}
                <a href={l.url} target="_blank" rel="noopener noreferrer" className="break-all underline underline-offset-2">
                  {l.url}
                </a>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No links yet.</p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <Link to="/profile">Edit Profile</Link>
        </Button>
        <ShareActions profile={profile} />
      </div>
    </Card>
  );
}

function CardInfo({ cards }: { cards: UserCard[] }) {
  if (!cards.length) {
    return (
      <Card className="flex flex-col items-start gap-3 p-6">
        <h2 className="text-lg font-semibold">No card yet</h2>
        <p className="text-sm text-muted-foreground">Design your metal card from one of our templates; we review it before production.</p>
        <Button asChild>
          <Link to="/design">
            <Palette aria-hidden="true" />
            Design Your Card
          </Link>
        </Button>
      </Card>
    );
  }
  return (
    <div className="space-y-4">
      {cards.map((c) => (
        <Card key={c.id} className="space-y-4 p-6" data-testid="card-info">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">{c.templateName ? `${c.templateName} template` : `Template ${c.templateId}`}</h2>
            <StatusBadge status={c.status} />
          </div>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-xs uppercase tracking-wide text-muted-foreground">Card type</dt>
              <dd>{cardTypeInfo(c.cardType)?.label ?? c.cardType}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-muted-foreground">Engraving</dt>
              <dd>{c.customizations.textColor.toUpperCase() === '#FFD700' ? 'Gold' : 'Silver engraving'}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-muted-foreground">QR code</dt>
              <dd>{c.qrGenerated ? 'Generated' : 'Not generated yet'}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-muted-foreground">Submitted</dt>
              <dd>{new Date(c.submittedAt).toLocaleString()}</dd>
            </div>
            {c.reviewNotes ? (
              <div className="sm:col-span-2">
                <dt className="text-xs uppercase tracking-wide text-muted-foreground">Review note</dt>
                <dd>{c.reviewNotes}</dd>
              </div>
            ) : null}
          </dl>
          <div className="flex flex-wrap gap-2">
            <Button asChild size="sm">
              <Link to="/design">
                <Palette aria-hidden="true" />
                Design Another Card
              </Link>
            </Button>
            <Button asChild size="sm" variant="outline">
              <Link to="/profile?tab=share">
                <QrIcon aria-hidden="true" />
                View QR Code
              </Link>
            </Button>
          </div>
        </Card>
      ))}
    </div>
  );
}

function Analytics({ stats, isLoading }: { stats: VisitStats | undefined; isLoading: boolean }) {
  if (isLoading || !stats) return <Skeleton className="h-64" />;
  const latest = stats.visits.slice(0, LATEST_VISITS_SHOWN);
  return (
    <div className="space-y-6">
      <div className="grid gap-4 md:grid-cols-3">
        <SummaryCard testId="total-views" title="Total views" value={String(stats.totalVisits)} icon={<BarChart3 className="size-5 text-muted-foreground" aria-hidden="true" />} />
        <SummaryCard
          testId="views-30d"
          title="Last 30 days"
          value={String(stats.daily.reduce((s, d) => s + d.count, 0))}
          icon={<Eye className="size-5 text-muted-foreground" aria-hidden="true" />}
        />
        <SummaryCard
          testId="link-clicks-total"
          title="Link clicks"
          value={String(stats.linkClicks.reduce((s, l) => s + l.clicks, 0))}
          icon={<ExternalLink className="size-5 text-muted-foreground" aria-hidden="true" />}
        />
      </div>
      <Card className="p-6">
        <h2 className="mb-4 text-lg font-semibold">Views per day</h2>
        <Suspense fallback={<Skeleton className="h-56" />}>
          <VisitsChart daily={stats.daily} />
        </Suspense>
      </Card>
      <div className="grid gap-6 md:grid-cols-2">
        <Card className="p-6">
          <h2 className="mb-4 text-lg font-semibold">Link clicks</h2>
          {stats.linkClicks.length ? (
            <ul className="space-y-2" data-testid="link-clicks">
              {stats.linkClicks.map((l) => (
                <li key={l.linkId} className="flex items-center justify-between gap-3 text-sm">
                  <span className="min-w-0">
                    <span className="font-medium">{LINK_TYPE_LABELS[l.linkType as keyof typeof LINK_TYPE_LABELS] ?? 'Link'}</span>
                    <span className="block truncate text-xs text-muted-foreground">{l.url}</span>
                  </span>
                  <span className="shrink-0 font-semibold tabular-nums">
                    {l.clicks} {l.clicks === 1 ? 'click' : 'clicks'}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">Add links to your profile to see how often they are opened.</p>
          )}
        </Card>
        <Card className="p-6">
          <h2 className="mb-4 text-lg font-semibold">Latest visits</h2>
          {latest.length ? (
            <ul className="divide-y divide-border" data-testid="latest-visits">
              {latest.map((v) => {
                const d = new Date(v.timestamp);
                return (
                  <li key={v.id} className="flex items-center justify-between py-2 text-sm">
                    <span>
                      {d.toLocaleDateString()} <span className="text-muted-foreground">{d.toLocaleTimeString()}</span>
                    </span>
                    <span className="inline-flex items-center gap-1.5" title={v.userAgent}>
                      <DeviceIcon device={v.device} />
                      {v.device}
                    </span>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">No visits yet. Share your link or QR code to get your first views.</p>
          )}
        </Card>
      </div>
    </div>
  );
}

function Dashboard() {
  const profileQ = useProfile();
  const cardsQ = useCards();
  const statsQ = useVisitStats();
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
        <TabsList className="flex h-auto w-full flex-wrap justify-start gap-1 sm:w-auto">
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="profile">Profile</TabsTrigger>
          <TabsTrigger value="card">Card</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
          <TabsTrigger value="leads">Leads</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <Overview profile={profile} cards={cards} stats={statsQ.data} />
        </TabsContent>
        <TabsContent value="profile">
          <ProfileInfo profile={profile} />
        </TabsContent>
        <TabsContent value="card">
          <CardInfo cards={cards} />
        </TabsContent>
        <TabsContent value="analytics" className="space-y-6">
          {profile ? (
            <Suspense fallback={<Skeleton className="h-96" />}>
              <EngagementPanel />
            </Suspense>
          ) : null}
          <Analytics stats={statsQ.data} isLoading={statsQ.isLoading} />
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
