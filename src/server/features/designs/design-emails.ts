import { renderEmail } from '#server/infra/mail/layout';
import type { OutgoingEmail } from '#server/infra/mail/outbox';

const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

/**
 * "Your proof is ready" (staff approved the design) or "Your card design needs changes": one e-mail
 * per review of a card design, each with one button to the order page, where the customer approves
 * the proof or edits the design (issue 35: milestones only).
 */
export function designReviewedEmail(p: { to: string; name: string; approved: boolean; reason?: string | null; orderId: number; link: string; eventId?: number; editUrl?: string | null }): OutgoingEmail {
  const reason = p.reason?.trim();
  const content = renderEmail({
    preheader: p.approved ? `Your proof for order #${p.orderId} is ready for your approval` : 'Your card design needs changes',
    heading: p.approved ? 'Your proof is ready' : 'Your card design needs changes',
    paragraphs: p.approved
      ? [
          `Hi ${firstName(p.name)}, our team approved your card design for order #${p.orderId}. Your proof is ready: it is made from the print file itself, so it shows exactly what we will print.`,
          'Please check every detail, then approve the proof or tell us what to change. We start production only after you approve it.',
          `Order page: ${p.link}`,
        ]
      : [
          `Hi ${firstName(p.name)}, our team reviewed your card design for order #${p.orderId} and could not approve it as it is.`,
          reason ? `Reason: ${reason}` : 'Please review your design or reply to this e-mail and we will help.',
          p.editUrl
            ? `Edit your design and resubmit it for the same order (sign in first): ${p.editUrl}`
            : 'Your order page shows the reason and lets you edit and resubmit the design.',
          `Order page: ${p.link}`,
        ],
    button: { label: p.approved ? 'Review your proof' : 'See what to change', url: p.link },
  });
  return {
    // one e-mail per review: a design rejected, resubmitted and rejected again is e-mailed twice
    dedupeKey: `design-reviewed:${p.orderId}:${p.approved ? 'approved' : 'rejected'}${p.eventId ? `:${p.eventId}` : ''}`,
    kind: p.approved ? 'design-approved' : 'design-rejected',
    orderId: p.orderId,
    to: p.to,
    subject: p.approved ? `Your proof is ready (order #${p.orderId})` : `Your card design needs changes (order #${p.orderId})`,
    ...content,
  };
}
