import { BUSINESS } from '#shared/catalogue';
import { phoneE164 } from '#shared/profile/phone';
import type { Lead } from '#shared/schemas/engagement';
import { CRM_CONTACT_HEADERS, CSV_BOM, crmContactCells, csvRow } from '#server/http/csv';
import { escapeText, foldLine, splitName } from '#server/features/profile/public-api';

/**
 * The owner's leads as a spreadsheet (CSV, RFC 4180, formula-safe cells: see admin/csv.ts) and
 * as contact files (one vCard 3.0 per lead in one .vcf, which phones and mail apps import at once).
 */

/** HubSpot's contact columns (as the team CSV), then the lead's own: message, consent, when. */
export const LEAD_CSV_HEADER = [...CRM_CONTACT_HEADERS, 'Message', 'Consent', 'Received'];

export function leadsCsv(list: Lead[]): string {
  let out = CSV_BOM + csvRow(LEAD_CSV_HEADER);
  for (const l of list) {
    out += `${crmContactCells({ name: l.name, email: l.email, phone: l.phone, company: l.company })},${csvRow([l.note ?? '', l.consent ? 'yes' : 'no', l.createdAt])}`;
  }
  return out;
}

function leadVcard(l: Lead): string {
  const lines: string[] = ['BEGIN:VCARD', 'VERSION:3.0'];
  const { family, given } = splitName(l.name);
  lines.push(`N:${escapeText(family)};${escapeText(given)};;;`);
  lines.push(`FN:${escapeText(l.name)}`);
  if (l.company) lines.push(`ORG:${escapeText(l.company)}`);
  if (l.email) lines.push(`EMAIL;TYPE=INTERNET:${escapeText(l.email)}`);
  if (l.phone) lines.push(`TEL;TYPE=CELL,VOICE:${escapeText(phoneE164(l.phone) ?? l.phone)}`);
  const met = `Shared with you through your ${BUSINESS.name} profile on ${l.createdAt.slice(0, 10)}.`;
  lines.push(`NOTE:${escapeText(l.note ? `${l.note}\n\n${met}` : met)}`);
  lines.push(`REV:${l.createdAt.replace(/\.\d{3}Z$/, 'Z')}`);
  lines.push('END:VCARD');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

export function leadsVcf(list: Lead[]): string {
  return list.map(leadVcard).join('');
}

/** leads-YYYY-MM-DD.{ext} */
export function exportFileName(ext: 'csv' | 'vcf', now = new Date()): string {
  return `leads-${now.toISOString().slice(0, 10)}.${ext}`;
}
