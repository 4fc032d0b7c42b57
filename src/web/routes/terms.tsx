import { usePageTitle } from '#web/lib/use-page-title';
import { LegalDocument } from '#web/features/settings/components/legal-document';

export default function TermsPage() {
  usePageTitle('Terms of Service', 'The terms for ordering metal business cards from Metal Cards NYC and using its digital profiles.');
  return <LegalDocument document="terms" title="Terms of Service" />;
}
