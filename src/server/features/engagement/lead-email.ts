import { BUSINESS } from '#shared/catalogue';
import type { Lead } from '#shared/schemas/engagement';
import { renderEmail } from '#server/infra/mail/layout';
import type { OutgoingEmail } from '#server/infra/mail/outbox';

export interface LeadEmailInput {
  lead: Lead;
  /** the profile owner's full name */
  ownerName: string;
  /** the owner's account e-mail */
  to: string;
  /** the site's origin for the dashboard link */
  baseUrl: string;
}

/** "Someone shared their contact with you": one per lead (dedupe key lead-received:{id}). */
export function leadReceivedEmail({ lead, ownerName, to, baseUrl }: LeadEmailInput): OutgoingEmail {
  const first = ownerName.trim().split(/\s+/)[0] || ownerName;
  const rows: Array<[string, string]> = [['Name', lead.name]];
  if (lead.email) rows.push(['Email', lead.email]);
  if (lead.phone) rows.push(['Phone', lead.phone]);
  if (lead.company) rows.push(['Company', lead.company]);
  if (lead.note) rows.push(['Note', lead.note]);
  const link = `${baseUrl.replace(/\/+$/, '')}/dashboard?tab=leads`;
  const content = renderEmail({
    preheader: `${lead.name} shared their contact details with you`,
    heading: 'New contact from your profile',
    paragraphs: [
      `Hi ${first}, ${lead.name} visited your digital business card and shared their details with you. They agreed to be contacted.`,
      'All your contacts are in the Leads tab of your dashboard, where you can export them as a spreadsheet or as contact files.',
    ],
    rows,
    button: { label: 'View your leads', url: link },
    footer: `${BUSINESS.name} · You get this e-mail because the contact exchange form is on for your profile. You can turn it off in the Leads tab.`,
  });
  return {
    dedupeKey: `lead-received:${lead.id}`,
    kind: 'lead-received',
    to,
    subject: `New contact: ${lead.name}`,
    ...content,
  };
}
