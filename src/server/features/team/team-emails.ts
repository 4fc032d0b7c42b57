import { BUSINESS } from '#shared/catalogue';
import { renderEmail } from '#server/infra/mail/layout';
import type { OutgoingEmail } from '#server/infra/mail/outbox';

export interface InviteEmailInput {
  inviteId: string;
  /** how many times it was sent (each send is its own e-mail) */
  send: number;
  to: string;
  fullName: string | null;
  teamName: string;
  inviterName: string | null;
  link: string;
  days: number;
}

/** The invitation: a single-use link that works for a new or an existing account. */
export function teamInviteEmail(i: InviteEmailInput): OutgoingEmail {
  const hello = i.fullName ? `Hi ${i.fullName.split(/\s+/)[0]},` : 'Hello,';
  const who = i.inviterName ? `${i.inviterName} invited you` : 'You are invited';
  const content = renderEmail({
    preheader: `${who} to join ${i.teamName} on ${BUSINESS.name}`,
    heading: `Join ${i.teamName}`,
    paragraphs: [
      `${hello} ${who} to join ${i.teamName} on ${BUSINESS.name}. Your team runs its metal business cards and digital profiles here: your profile takes the team's brand, and your card is ordered for you.`,
      `The link works once and for ${i.days} days. If you have no account yet, you can create one with this address (${i.to}) from the link.`,
    ],
    button: { label: 'Accept the invitation', url: i.link },
    footer: `${BUSINESS.name} · If you did not expect this invitation, you can ignore this e-mail.`,
  });
  return {
    dedupeKey: `team-invite:${i.inviteId}:${i.send}`,
    kind: 'team-invite',
    to: i.to,
    subject: `${i.teamName} invited you to join their team`,
    ...content,
  };
}

/** What happened to a member's team card that the member is told about (issue 37, decision 37-09). */
export type MemberCardEvent = 'placed' | 'shipped' | 'ready-for-pickup';

export interface MemberCardEmailInput {
  orderId: number;
  userId: string;
  event: MemberCardEvent;
  to: string;
  fullName: string | null;
  teamName: string;
  quantity: number;
  /** the member's own dashboard (their card), never the order's status link: that is the team's */
  link: string;
}

const MEMBER_CARD_TEXT: Record<MemberCardEvent, { subject: (team: string) => string; heading: string; line: (i: MemberCardEmailInput) => string }> = {
  placed: {
    subject: (team) => `${team} ordered your metal business card`,
    heading: 'Your card is ordered',
    line: (i) =>
      `${i.teamName} ordered ${i.quantity} metal business ${i.quantity === 1 ? 'card' : 'cards'} for you, made from your profile. Our studio reviews the design first; your card's QR code opens your profile. Keep your profile up to date: it is what people see when they scan the card.`,
  },
  shipped: {
    subject: () => 'Your metal business cards are on their way',
    heading: 'Your cards have shipped',
    line: (i) => `The ${i.quantity} metal business ${i.quantity === 1 ? 'card' : 'cards'} ${i.teamName} ordered for you ${i.quantity === 1 ? 'has' : 'have'} shipped with the team's delivery.`,
  },
  'ready-for-pickup': {
    subject: () => 'Your metal business cards are ready',
    heading: 'Your cards are ready for pickup',
    line: (i) => `The ${i.quantity} metal business ${i.quantity === 1 ? 'card' : 'cards'} ${i.teamName} ordered for you ${i.quantity === 1 ? 'is' : 'are'} ready at our New York studio. Your team picks ${i.quantity === 1 ? 'it' : 'them'} up.`,
  },
};

/** A team member's own card: ordered for them, shipped, or ready (the order's e-mails go to whoever placed it). */
export function memberCardEmail(i: MemberCardEmailInput): OutgoingEmail {
  const t = MEMBER_CARD_TEXT[i.event];
  const hello = i.fullName ? `Hi ${i.fullName.split(/\s+/)[0]},` : 'Hello,';
  const content = renderEmail({
    preheader: t.subject(i.teamName),
    heading: t.heading,
    paragraphs: [`${hello} ${t.line(i)}`],
    button: { label: 'See your card', url: i.link },
    footer: `${BUSINESS.name} · You receive this because ${i.teamName} ordered a card for you.`,
  });
  return { dedupeKey: `team-card:${i.orderId}:${i.userId}:${i.event}`, kind: `team-card-${i.event}`, to: i.to, subject: t.subject(i.teamName), orderId: i.orderId, ...content };
}
