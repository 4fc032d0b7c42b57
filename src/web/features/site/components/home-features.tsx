import { BarChart3, Palette, RefreshCw, Smartphone } from 'lucide-react';
import { MAX_PROFILE_LINKS } from '#shared/catalogue';
import { IconCardList } from './icon-card-list';
import { SectionHeading } from './section-heading';

const FEATURES = [
  { icon: Smartphone, title: 'Mobile-Responsive', text: 'Your profile looks right on every phone, tablet and desktop.' },
  { icon: Palette, title: 'Customizable', text: `Your links (up to ${MAX_PROFILE_LINKS}), your photo and your branding, in the layout you choose.` },
  { icon: RefreshCw, title: 'Always Up to Date', text: 'Change your details any time; every card you have handed out shows them, without reprinting.' },
  { icon: BarChart3, title: 'View Tracking', text: 'See how many people viewed your profile.' },
];

export function HomeFeatures() {
  return (
    <section aria-labelledby="features-heading" id="features" className="scroll-mt-28 px-4 py-16 sm:py-20">
      <SectionHeading id="features-heading" title="Features">
        Everything a modern business card should do.
      </SectionHeading>
      <IconCardList items={FEATURES} className="mx-auto mt-10 max-w-6xl gap-6" />
    </section>
  );
}
