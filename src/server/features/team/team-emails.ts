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
