import { PageSpinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/features/auth/use-auth';
import { AuthRequired } from '#web/features/templates/auth-required';
import { usePageTitle } from '#web/lib/use-page-title';
import { CardBuilder } from '#web/features/templates/components/card-builder';

export default function CreateCardPage() {
  usePageTitle('Create Your Card', 'Build your metal business card in five steps: template, card type, details, preview with your real QR code, then quantity and delivery.');
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner />;
  if (!user) return <AuthRequired note="Please sign in to create your card." />;
  return <CardBuilder userEmail={user.email} />;
}
