import { lazy, Suspense } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LayoutDashboard, Palette, Settings } from 'lucide-react';
import { usePageTitle } from '#web/lib/use-page-title';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useAuth } from '#web/lib/session/use-auth';
import { RequireAuth } from '#web/components/require-auth';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { PageSpinner } from '#web/components/ui/spinner';
import { useProfile } from '#web/features/profile/api';
import { ProfileForm } from '#web/features/profile/components/profile-form';
import { SharePanel } from '#web/features/profile/components/share-panel';
import { SignaturePanel } from '#web/features/engagement/components/signature-panel';
import { CardCodesManager } from '#web/features/engagement/components/card-codes-manager';
import { MediaTab, NeedsProfile } from '#web/features/profile/components/media-tab';
import { useTeamLocks } from '#web/features/team/use-team-locks';
import { SyncedFieldsNotice } from '#web/features/scim/components/synced-fields-notice';
import { useSyncedFields } from '#web/features/scim/api';

const AdminTab = lazy(() => import('#web/features/admin/admin-tab'));

const TABS = ['profile', 'media', 'share', 'admin'] as const;
type Tab = (typeof TABS)[number];

function ProfileTabs() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { isAdmin, user } = useAuth();
  const profileQ = useProfile();
  // the fields a team member's team manages (issue 21), shown locked in the profile's forms
  const locks = useTeamLocks();
  const synced = useSyncedFields(!!user).data?.fields ?? []; // kept in sync by the company's directory (issue 39): read-only
  const requested = params.get('tab');
  const tab: Tab = TABS.includes(requested as Tab) && (requested !== 'admin' || isAdmin) ? (requested as Tab) : 'profile';
  const setTab = (t: string) => {
    const next = new URLSearchParams(params);
    if (t === 'profile') next.delete('tab');
    else next.set('tab', t);
    setParams(next);
  };

  if (profileQ.isLoading) return <PageSpinner />;
  if (profileQ.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(profileQ.error, 'Could not load your profile.')}
      </p>
    );
  }
  const profile = profileQ.data ?? null;

  function designCard() {
    if (!profile) {
      toast({ title: 'Profile Required', description: 'Please complete your profile information first', variant: 'destructive' });
      return;
    }
    navigate('/design');
  }

  return (
    <>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="flex h-auto w-full justify-start gap-1 sm:w-auto">
          <TabsTrigger value="profile">Profile</TabsTrigger>
          <TabsTrigger value="media">Media</TabsTrigger>
          <TabsTrigger value="share">Share</TabsTrigger>
          {isAdmin ? <TabsTrigger value="admin">Admin</TabsTrigger> : null}
        </TabsList>

        <TabsContent value="profile">
          <Card className="p-6">
            <h2 className="mb-1 text-xl font-semibold">Profile Information</h2>
            <p className="mb-6 text-sm text-muted-foreground">This is what people see when they scan your card.</p>
            <SyncedFieldsNotice fields={synced} />
            <ProfileForm profile={profile} locks={locks} synced={synced} />
          </Card>
        </TabsContent>
        <TabsContent value="media">
          <Card className="p-6">
            <h2 className="mb-1 text-xl font-semibold">Profile Photo &amp; Logos</h2>
            <p className="mb-6 text-sm text-muted-foreground">Add a photo and your company branding.</p>
            {profile ? <MediaTab profile={profile} locks={locks} onContinue={() => setTab('share')} /> : <NeedsProfile what="add your photo and logos" onGo={() => setTab('profile')} />}
          </Card>
        </TabsContent>

        <TabsContent value="share">
          <div className="space-y-2">
            <h2 className="text-xl font-semibold">Share Your Profile</h2>
            <p className="text-sm text-muted-foreground">Share your link, QR code and contact card.</p>
          </div>
          <div className="mt-6">
            {profile ? (
              <div className="space-y-6">
                <SharePanel profile={profile} />
                <SignaturePanel profile={profile} />
                <CardCodesManager />
              </div>
            ) : (
              <NeedsProfile what="get your link, QR code and contact card" onGo={() => setTab('profile')} />
            )}
          </div>
        </TabsContent>

        {isAdmin ? (
          <TabsContent value="admin">
            <h2 className="mb-4 text-xl font-semibold">Admin Dashboard</h2>
            <Suspense fallback={<PageSpinner />}>{tab === 'admin' ? <AdminTab /> : null}</Suspense>
          </TabsContent>
        ) : null}
      </Tabs>

      <div className="mt-10 flex flex-col gap-3 border-t border-border pt-6 sm:flex-row sm:justify-between">
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button asChild variant="outline">
            <Link to="/dashboard">
              <LayoutDashboard aria-hidden="true" />
              Go to Dashboard
            </Link>
          </Button>
          <Button type="button" variant="secondary" onClick={designCard}>
            <Palette aria-hidden="true" />
            Design Your Card
          </Button>
        </div>
        <Button asChild variant="ghost">
          <Link to="/account">
            <Settings aria-hidden="true" />
            Account settings
          </Link>
        </Button>
      </div>
    </>
  );
}

export default function ProfilePage() {
  usePageTitle('Your Profile', 'Edit your digital profile, photo and links, and share it by link, QR code and contact card.');
  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">Your Profile</h1>
      <RequireAuth>
        <ProfileTabs />
      </RequireAuth>
    </section>
  );
}
