import { usePageTitle } from '#web/lib/use-page-title';
import { LegalDocument } from '#web/features/settings/components/legal-document';

export default function PrivacyPage() {
  usePageTitle('Privacy Policy', 'What Metal Cards NYC keeps about you (orders, photos, contacts, e-mails, statistics), who else sees it, and how to have it removed.');
  return <LegalDocument document="privacy" title="Privacy Policy" />;
}
