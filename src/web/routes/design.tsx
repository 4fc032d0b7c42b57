import { PageSpinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/features/auth/use-auth';
import { AuthRequired } from '#web/features/templates/auth-required';
import { usePageTitle } from '#web/lib/use-page-title';
import { DesignWizard } from '#web/features/templates/components/design-wizard';

export default function DesignPage() {
  usePageTitle('Design Your Card', 'Choose a template and card type, enter your details and see your metal business card live, front and back.');
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner />;
  if (!user) return <AuthRequired note="Please sign in to design your card and send it for review." />;
  return <DesignWizard userEmail={user.email} />;
}
