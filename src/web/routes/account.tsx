import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { errorMessage } from '#web/lib/api';
import { usePageTitle } from '#web/lib/use-page-title';
import { PageSpinner } from '#web/components/ui/spinner';
import { RequireAuth } from '#web/components/require-auth';
import { useAccount } from '#web/features/account/api';
import { ChangeEmailForm } from '#web/features/account/components/change-email-form';
import { ChangePasswordForm } from '#web/features/account/components/change-password-form';
import { SessionsCard } from '#web/features/account/components/sessions-card';
import { SecurityCard } from '#web/features/auth/components/security-card';
import { YourDataCard } from '#web/features/account/components/your-data-card';
import { DeveloperSection } from '#web/features/developer/components/developer-section';
import { WebhooksSection } from '#web/features/webhooks/components/webhooks-section';
import { useTeam } from '#web/features/team/api';

function AccountSettings() {
  const account = useAccount();
  // an owner or admin of a team may make tokens that act for the team
  const team = useTeam();
  const teamAdmin = team.data?.role === 'owner' || team.data?.role === 'admin';
  if (account.isLoading) return <PageSpinner />;
  if (account.isError || !account.data) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(account.error, 'Could not load your account.')}
      </p>
    );
  }
  return (
    <div className="space-y-6">
      <ChangeEmailForm account={account.data} />
      <ChangePasswordForm />
      <SecurityCard />
      <SessionsCard />
      <YourDataCard />
      <DeveloperSection teamAdmin={teamAdmin} webhooks={<WebhooksSection />} />
    </div>
  );
}

export default function AccountPage() {
  usePageTitle('Account Settings', 'Manage your sign-in email, password, devices and data.');
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <Link to="/profile" className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to profile
      </Link>
      <h1 className="mb-6 text-3xl font-bold">Account settings</h1>
      <RequireAuth>
        <AccountSettings />
      </RequireAuth>
    </section>
  );
}
