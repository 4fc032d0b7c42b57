import { Link } from 'react-router';
import { Gem, HeartHandshake, Leaf, Mail, QrCode } from 'lucide-react';
import { BUSINESS } from '#shared/catalogue';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { usePageTitle } from '#web/lib/use-page-title';
import { PageIntro } from '#web/features/site/components/contact-block';
import { IconCardList } from '#web/features/site/components/icon-card-list';
import { StudioInfo } from '#web/features/settings/components/studio-info';

const VALUES = [
  {
    icon: Gem,
    title: 'Craftsmanship',
    text: 'Solid metal, clean engraving and precise finishes. Every design is checked before production: if it would not impress us, it does not ship.',
  },
  {
    icon: QrCode,
    title: 'Innovation',
    text: 'A card should do more than sit in a drawer. Each of ours opens a live digital profile that you keep up to date.',
  },
  {
    icon: Leaf,
    title: 'Lasting Value',
    text: 'Metal cards are kept, not thrown away, and a profile you can edit means no reprinting when your details change.',
  },
  {
    icon: HeartHandshake,
    title: 'Personal Service',
    text: `Real people review every design, send you a proof and answer your questions ${BUSINESS.claims.supportReply}.`,
  },
];

export default function AboutPage() {
  usePageTitle('About Us', `${BUSINESS.name} makes premium metal business cards in New York, each with a QR code that opens a digital profile you keep up to date.`);
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:py-16">
      <PageIntro title={`About ${BUSINESS.name}`}>Premium metal business cards, made in New York, upgraded with a digital profile.</PageIntro>

      <div className="mt-12 grid grid-cols-1 gap-8 md:grid-cols-2">
        <section aria-labelledby="story-heading">
          <h2 id="story-heading" className="text-2xl font-semibold">
            Our Story
          </h2>
          <div className="mt-4 space-y-4 text-muted-foreground leading-relaxed">
            <p>
              We started as a small metal-card studio in New York City, making heavy, precise cards for people whose first impression matters: founders, agents,
              designers, lawyers. Our customers loved the cards, but kept telling us the same thing: the moment their phone number or title changed, a box of
              beautiful cards became out of date.
            </p>
            <p>
              So we gave every card a second life online. Each one now carries a QR code that opens its owner's digital profile, with contacts, links and photo,
              which they can change at any time. The metal stays the same; the details are always current.
            </p>
          </div>
        </section>
        <section aria-labelledby="mission-heading">
          <h2 id="mission-heading" className="text-2xl font-semibold">
            Our Mission
          </h2>
          <div className="mt-4 space-y-4 text-muted-foreground leading-relaxed">
            <p>
              To make the business card worth keeping again: a physical object people remember, joined to a digital profile that saves your contact in one tap and
              shows you how many people looked.
            </p>
            <p>No apps to install, no reprints when life changes, and a team in New York that checks every design before it is made.</p>
          </div>
        </section>
      </div>

      <section aria-labelledby="values-heading" className="mt-14">
        <h2 id="values-heading" className="text-center text-2xl font-semibold">
          What We Value
        </h2>
        <IconCardList items={VALUES} className="mt-6" />
      </section>

      <section aria-labelledby="studio-heading" className="mt-14">
        <Card>
          <CardContent className="p-6">
            <h2 id="studio-heading" className="text-2xl font-semibold">
              Visit Our Studio
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">Our New York studio makes every card; pickup orders are collected here.</p>
            <div className="mt-4">
              <StudioInfo />
            </div>
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="cta-heading" className="mt-14">
        <Card>
          <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
            <h2 id="cta-heading" className="text-2xl font-semibold">
              Ready to make an impression?
            </h2>
            <p className="max-w-xl text-muted-foreground">Create your digital profile and order metal cards that stay up to date.</p>
            <Button asChild variant="gold" size="lg">
              <Link to="/login">Get Started</Link>
            </Button>
            <p className="text-sm text-muted-foreground">
              Questions first? Write to{' '}
              <a href={`mailto:${BUSINESS.email}`} className="inline-flex items-center gap-1 font-medium text-foreground underline underline-offset-4 hover:text-amber-700 dark:hover:text-gold">
                <Mail aria-hidden="true" className="size-4" />
                {BUSINESS.email}
              </a>
            </p>
          </CardContent>
        </Card>
      </section>
    </div>
  );
}
