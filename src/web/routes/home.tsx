import { BUSINESS } from '#shared/catalogue';
import { usePageTitle } from '#web/lib/use-page-title';
import { HomeHero } from '#web/features/site/components/home-hero';
import { HowItWorks } from '#web/features/site/components/how-it-works';
import { HomeTemplates } from '#web/features/site/components/home-templates';
import { CompleteSolution } from '#web/features/site/components/complete-solution';
import { QrTechnology } from '#web/features/site/components/qr-technology';
import { HomeFeatures } from '#web/features/site/components/home-features';
import { useTemplates } from '#web/features/templates/api';

/** The home page (prerendered at build time and hydrated: docs/decisions/11-06-prerendered-home.md). */
export default function HomePage() {
  usePageTitle('', `${BUSINESS.tagline}: metal business cards made in New York, each with a QR code that opens your digital profile.`);
  const templates = useTemplates();
  return (
    <>
      <HomeHero />
      <HowItWorks />
      <HomeTemplates query={templates} />
      <CompleteSolution />
      <QrTechnology />
      <HomeFeatures />
    </>
  );
}
