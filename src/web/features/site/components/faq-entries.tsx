import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ARTWORK_EXTENSIONS, BUSINESS, CARD_STYLES, CARD_TYPES, DELIVERY_OPTIONS, MAX_PROFILE_LINKS, QUANTITY_MAX, QUANTITY_MIN, VOLUME_DISCOUNT_FROM, formatUsd } from '#shared/catalogue';

const link = 'font-medium text-foreground underline underline-offset-4 hover:text-amber-700 dark:hover:text-gold';

const list = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

const artworkTypes = list([...new Set(ARTWORK_EXTENSIONS.map((e) => (e === 'jpeg' ? 'jpg' : e).toUpperCase()))]);

function profileAddress() {
  return `${typeof window === 'undefined' ? '' : window.location.host}/p/your-id`;
}

interface Faq {
  id: string;
  question: string;
  answer: ReactNode;
}

/** The FAQ page's questions and answers (figures from the catalogue, so they never drift). */
export const FAQS: Faq[] = [
  {
    id: 'card-types',
    question: 'What types of metal cards do you offer?',
    answer: (
      <>
        <p>Four metals, priced per card in US dollars:</p>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {CARD_TYPES.map((c) => (
            <li key={c.id}>
              <span className="font-medium text-foreground">{c.label}</span> – {formatUsd(c.priceCents)} per card ({c.description.toLowerCase()})
            </li>
          ))}
        </ul>
        <p className="mt-2">
          Each comes in a {list(CARD_STYLES.map((s) => s.toLowerCase()))} finish. See them on the <Link className={link} to="/order">order form</Link>, which shows the
          running total as you choose.
        </p>
      </>
    ),
  },
  {
    id: 'digital-profile',
    question: 'What is a digital profile?',
    answer: (
      <p>
        It is your own web page, opened by the QR code printed on your card. Whoever scans it sees your name, title, contact details and links on their phone, and can
        save you as a contact in one tap, with no app to install. You can also share it by link or as a contact file, and see how many people viewed it.
      </p>
    ),
  },
  {
    id: 'profile-contents',
    question: 'What can I put on my profile?',
    answer: (
      <p>
        Your full name, job title, company, e-mail, phone and address; a photo, your company logo and a banner logo; and up to {MAX_PROFILE_LINKS} custom links (for
        example your portfolio, LinkedIn and Instagram). Pick one of five layouts: classic, modern, minimal, creative or corporate.
      </p>
    ),
  },
  {
    id: 'production-time',
    question: 'How long does production take?',
    answer: (
      <>
        <p>Production takes {BUSINESS.claims.productionDays} once your design is approved. Then choose how the cards reach you:</p>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {DELIVERY_OPTIONS.map((d) => (
            <li key={d.id}>
              <span className="font-medium text-foreground">{d.label}</span>
              {d.feeCents ? ` (${formatUsd(d.feeCents)})` : ''} – {d.description}
            </li>
          ))}
        </ul>
      </>
    ),
  },
  {
    id: 'edit-profile',
    question: 'Can I change my profile after the cards are printed?',
    answer: (
      <p>
        Yes, as often as you like. The QR code points to your profile's address, which never changes, so a new phone number, job or link shows up on every card you
        have already handed out, without reprinting.
      </p>
    ),
  },
  {
    id: 'logo-formats',
    question: 'What file formats do you accept for logos?',
    answer: (
      <p>
        Send your logo as JPG, PNG or PDF at 300 DPI for a crisp engraving. The order form and the logo uploads take {artworkTypes}; from a PDF we use its first
        page, drawn at 300 DPI. A vector file (SVG or PDF) is best for fine lines; questions about a file go to{' '}
        <a className={link} href={`mailto:${BUSINESS.email}`}>
          {BUSINESS.email}
        </a>
        .
      </p>
    ),
  },
  {
    id: 'bulk-discounts',
    question: 'Do you offer discounts for large orders?',
    answer: (
      <p>
        Yes: orders of {VOLUME_DISCOUNT_FROM} cards or more qualify for volume discounts. You can order from {QUANTITY_MIN} to {QUANTITY_MAX.toLocaleString('en-US')}{' '}
        cards at a time; for a team or company quote, write to{' '}
        <a className={link} href={`mailto:${BUSINESS.email}`}>
          {BUSINESS.email}
        </a>
        .
      </p>
    ),
  },
  {
    id: 'durability',
    question: 'How durable are metal cards?',
    answer: (
      <p>
        Very. Metal does not bend, tear or soak through like paper, and the engraving does not rub off, so a card still looks sharp after years in a wallet. The QR
        code is part of the design, so it keeps scanning as long as the card lasts.
      </p>
    ),
  },
  {
    id: 'proof',
    question: 'Will I see a proof before my cards are made?',
    answer: (
      <p>
        Yes. Once our team has reviewed and approved your design, we e-mail you a proof of the front and back, made from the print file itself, and show it on your
        order page. Approve it there or tell us what to change: nothing goes into production until you approve it. We e-mail you at each milestone: your proof is
        ready (or your design needs changes), your cards are in production, shipped or ready for pickup, and delivered.
      </p>
    ),
  },
  {
    id: 'qr-fallback',
    question: "What if someone's phone cannot scan the QR code?",
    answer: (
      <p>
        Every profile also has a plain web address ({profileAddress()}) that anyone can type into a browser, and you can share it as a link from your profile page.
        The QR code works with the standard camera app of current iPhones and Android phones.
      </p>
    ),
  },
  {
    id: 'shipping',
    question: 'Where do you ship?',
    answer: (
      <p>
        We ship mainly within the United States. In New York City you can also pick your cards up for free or get them the same day by Manhattan courier. For an
        address outside the US, write to us before ordering and we will tell you what is possible.
      </p>
    ),
  },
  {
    id: 'price-includes',
    question: "What's included in the price?",
    answer: (
      <p>
        The per-card price covers the metal card made with your design, your own QR code, the design review and digital proof, and your digital profile with its
        updates and view counts. Standard delivery and NYC pickup are free; expedited and courier delivery are the only extras. Your total is the card price × the
        quantity + the delivery fee, shown before you submit.
      </p>
    ),
  },
];
