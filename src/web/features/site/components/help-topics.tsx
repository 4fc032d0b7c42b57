import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Clock, CreditCard, LifeBuoy, Palette, UserRound } from 'lucide-react';
import { BUSINESS, CARD_TYPES, DELIVERY_OPTIONS, MAX_PROFILE_LINKS, VOLUME_DISCOUNT_FROM, formatUsd } from '#shared/catalogue';

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

/** The Help Center's topics, each a few questions with short answers. */
export const TOPICS: Topic[] = [
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
      { q: 'Proofs', a: 'Our team reviews every design, then e-mails you a proof made from the print file itself. You approve it (or ask for changes) on your order page; production starts only after you approve it.' },
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
