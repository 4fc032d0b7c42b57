import { Clock, Lightbulb, Mail, MapPin, Phone } from 'lucide-react';
import { BUSINESS, VOLUME_DISCOUNT_FROM } from '#shared/catalogue';
import { Card, CardContent, CardHeader } from '#web/components/ui/card';
import { usePageTitle } from '#web/lib/use-page-title';
import { PageIntro } from '#web/features/site/components/contact-block';
import { TOPICS } from '#web/features/site/components/help-topics';
import { StudioInfo, useStudioOrDefaults } from '#web/features/settings/components/studio-info';

const TIPS = [
  {
    title: 'Test your QR code',
    text: 'Before handing out cards, scan the code with two different phones to check your profile opens and your contact saves.',
  },
  {
    title: 'Keep your profile current',
    text: 'Update your title, phone and links whenever they change: every card you have given out shows the new details at once.',
  },
  {
    title: 'Order a few extra',
    text: `Cards go fast at events. Ordering ${VOLUME_DISCOUNT_FROM} or more gets a volume discount and saves a rush reorder.`,
  },
];

export default function HelpPage() {
  // the studio's phone and hours as staff set them (issue 35; the spec's values until they load)
  const studio = useStudioOrDefaults();
  const hours = studio.hours
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  usePageTitle(
    'Help Center',
    `Help with orders, pricing, digital profiles and design files. Contact us by e-mail or phone; we reply ${BUSINESS.claims.supportReply}.`,
  );
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageIntro title="Help Center">Find answers about orders, profiles and designs, or get in touch with our team.</PageIntro>

      <section aria-label="Help topics" className="mt-10 grid grid-cols-1 gap-6 md:grid-cols-2">
        {TOPICS.map(({ title, icon: Icon, items }) => (
          <Card key={title}>
            <CardHeader className="flex-row items-center gap-3">
              <span className="flex size-10 items-center justify-center rounded-lg bg-gold/15 text-gold">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <h2 className="text-lg font-semibold">{title}</h2>
            </CardHeader>
            <CardContent>
              <dl className="space-y-4 text-sm">
                {items.map((i) => (
                  <div key={i.q}>
                    <dt className="font-medium">{i.q}</dt>
                    <dd className="mt-1 text-muted-foreground">{i.a}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
        ))}
      </section>

      <section aria-labelledby="contact-heading" className="mt-12 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardContent className="p-6">
            <h2 id="contact-heading" className="text-xl font-semibold">
              Contact Us
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">We reply {BUSINESS.claims.supportReply}.</p>
            <ul className="mt-5 grid grid-cols-1 gap-4 sm:grid-cols-2">
              <li>
                <a href={`mailto:${BUSINESS.email}`} className="flex items-center gap-3 rounded-lg border border-border p-4 hover:bg-accent">
                  <Mail aria-hidden="true" className="size-5 text-gold" />
                  <span>
                    <span className="block text-sm font-medium">Email</span>
                    <span className="block text-sm text-muted-foreground break-all">{BUSINESS.email}</span>
                  </span>
                </a>
              </li>
              <li>
                <a href={`tel:${studio.phone.replace(/[^\d+]/g, '')}`} className="flex items-center gap-3 whitespace-nowrap rounded-lg border border-border p-4 hover:bg-accent">
                  <Phone aria-hidden="true" className="size-5 text-gold" />
                  <span>
                    <span className="block text-sm font-medium">Phone</span>
                    <span className="block text-sm text-muted-foreground">{studio.phone}</span>
                  </span>
                </a>
              </li>
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardContent className="p-6">
            <h2 className="flex items-center gap-2 text-xl font-semibold">
              <Clock aria-hidden="true" className="size-5 text-gold" />
              Business Hours
            </h2>
            <ul className="mt-4 space-y-2 text-sm" data-testid="business-hours">
              {hours.map((h) => (
                <li key={h}>{h}</li>
              ))}
            </ul>
            <p className="mt-4 text-sm text-muted-foreground">Response {BUSINESS.claims.supportReply}.</p>
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="studio-heading" className="mt-12">
        <Card>
          <CardContent className="p-6">
            <h2 id="studio-heading" className="flex items-center gap-2 text-xl font-semibold">
              <MapPin aria-hidden="true" className="size-5 text-gold" />
              Our Studio
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">Pickup orders are collected here.</p>
            <div className="mt-4">
              <StudioInfo showPickup />
            </div>
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="tips-heading" className="mt-12">
        <h2 id="tips-heading" className="flex items-center gap-2 text-xl font-semibold">
          <Lightbulb aria-hidden="true" className="size-5 text-gold" />
          Quick Tips
        </h2>
        <ol className="mt-5 grid grid-cols-1 gap-4 md:grid-cols-3">
          {TIPS.map((t, i) => (
            <li key={t.title}>
              <Card className="h-full">
                <CardContent className="p-6">
                  <p className="text-sm font-semibold text-amber-700 dark:text-gold">Tip {i + 1}</p>
                  <h3 className="mt-1 font-semibold">{t.title}</h3>
                  <p className="mt-2 text-sm text-muted-foreground">{t.text}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
