import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Clock, CreditCard, LifeBuoy, Lightbulb, Mail, Palette, Phone, UserRound } from 'lucide-react';
import { BUSINESS, CARD_TYPES, DELIVERY_OPTIONS, MAX_PROFILE_LINKS, VOLUME_DISCOUNT_FROM, formatUsd } from '#shared/catalogue';
import { Card, CardContent, CardHeader } from '#web/components/ui/card';
import { usePageTitle } from '#web/lib/use-page-title';
import { PageIntro } from '#web/features/visitor/contact-block';

const link = 'font-medium text-foreground underline underline-offset-4 hover:text-amber-700 dark:hover:text-gold';
const prices = CARD_TYPES.map((c) => `${c.label} ${formatUsd(c.priceCents)}`).join(', ');
const paidDelivery = DELIVERY_OPTIONS.filter((d) => d.feeCents > 0)
  .map((d) => `${d.label} ${formatUsd(d.feeCents)}`)
  .join(', ');

interface Topic {
  title: string;
  icon: typeof Clock;
  items: Array<{ q: string; a: ReactNode }>;
}

const TOPICS: Topic[] = [
  {
    title: 'Orders & Pricing',
    icon: CreditCard,
    items: [
      {
        q: 'Placing an order',
        a: (
          <>
            Fill in the <Link className={link} to="/order">order form</Link> with your details, card type, finish and quantity. We e-mail you a link to follow your
            order.
          </>
        ),
      },
      { q: 'Card prices', a: `Per card: ${prices}. Volume discounts from ${VOLUME_DISCOUNT_FROM} cards.` },
      { q: 'Delivery', a: `Standard delivery and NYC pickup are free; ${paidDelivery}. Production takes ${BUSINESS.claims.productionDays}.` },
    ],
  },
  {
    title: 'Digital Profiles',
    icon: UserRound,
    items: [
      {
        q: 'Creating your profile',
        a: (
          <>
            <Link className={link} to="/login">Sign in or create an account</Link>, then fill in your profile: contacts, photo, logos and up to {MAX_PROFILE_LINKS}{' '}
            links.
          </>
        ),
      },
      { q: 'Updating it', a: 'Edit your profile any time; the QR code on your cards keeps pointing to it, so nothing needs reprinting.' },
      { q: 'Sharing and views', a: 'Share it by link, QR code or contact file, and see how many people viewed it on your dashboard.' },
    ],
  },
  {
    title: 'Design & Files',
    icon: Palette,
    items: [
      {
        q: 'Choosing a design',
        a: (
          <>
            Start from one of our <Link className={link} to="/templates">templates</Link> and preview the front and back with your own details.
          </>
        ),
      },
      { q: 'Logo files', a: 'JPG, PNG or PDF at 300 DPI give the sharpest result; vector files are best for fine lines.' },
      { q: 'Proofs', a: 'Our team reviews every design, and you approve a digital proof before production starts.' },
    ],
  },
  {
    title: 'General Support',
    icon: LifeBuoy,
    items: [
      {
        q: 'Common questions',
        a: (
          <>
            The <Link className={link} to="/faq">FAQ</Link> answers the questions we hear most.
          </>
        ),
      },
      {
        q: 'Your account',
        a: (
          <>
            Forgot your password? <Link className={link} to="/forgot-password">Reset it here</Link> and we e-mail you a link.
          </>
        ),
      },
      { q: 'Anything else', a: `Write or call us using the details below. We reply ${BUSINESS.claims.supportReply}.` },
    ],
  },
];

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
  usePageTitle(
    'Help Center',
    `Help with orders, pricing, digital profiles and design files. Contact us by e-mail or phone; we reply ${BUSINESS.claims.supportReply}.`,
  );
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageIntro title="Help Center">Find answers about orders, profiles and designs, or get in touch with our team.</PageIntro>

      <section aria-label="Help topics" className="mt-10 grid gap-6 md:grid-cols-2">
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

      <section aria-labelledby="contact-heading" className="mt-12 grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardContent className="p-6">
            <h2 id="contact-heading" className="text-xl font-semibold">
              Contact Us
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">We reply {BUSINESS.claims.supportReply}.</p>
            <ul className="mt-5 grid gap-4 sm:grid-cols-2">
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
                <a href={BUSINESS.phoneHref} className="flex items-center gap-3 rounded-lg border border-border p-4 hover:bg-accent">
                  <Phone aria-hidden="true" className="size-5 text-gold" />
                  <span>
                    <span className="block text-sm font-medium">Phone</span>
                    <span className="block text-sm text-muted-foreground">{BUSINESS.phone}</span>
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
            <dl className="mt-4 space-y-2 text-sm" data-testid="business-hours">
              {BUSINESS.hours.map((h) => (
                <div key={h.days} className="flex justify-between gap-4">
                  <dt className="font-medium">{h.days}</dt>
                  <dd className="text-muted-foreground">{h.time}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-4 text-sm text-muted-foreground">Response {BUSINESS.claims.supportReply}.</p>
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="tips-heading" className="mt-12">
        <h2 id="tips-heading" className="flex items-center gap-2 text-xl font-semibold">
          <Lightbulb aria-hidden="true" className="size-5 text-gold" />
          Quick Tips
        </h2>
        <ol className="mt-5 grid gap-4 md:grid-cols-3">
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
