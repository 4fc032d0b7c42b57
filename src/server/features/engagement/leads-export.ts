import { BUSINESS } from '#shared/catalogue';
import type { Lead } from '#shared/schemas/engagement';
import { CSV_BOM, csvRow } from '#server/http/csv';
import { escapeText, foldLine, splitName } from '#server/features/profile/public-api';

/**
 * The owner's leads as a spreadsheet (CSV, RFC 4180, formula-safe cells: see admin/csv.ts) and
 * as contact files (one vCard 3.0 per lead in one .vcf, which phones and mail apps import at once).
 */

export const LEAD_CSV_HEADER = ['Name', 'Email', 'Phone', 'Company', 'Note', 'Consent', 'Received'];

export function leadsCsv(list: Lead[]): string {
  let out = CSV_BOM + csvRow(LEAD_CSV_HEADER);
  for (const l of list) {
    out += csvRow([l.name, l.email ?? '', l.phone ?? '', l.company ?? '', l.note ?? '', l.consent ? 'yes' : 'no', l.createdAt]);
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
  if (l.phone) lines.push(`TEL;TYPE=CELL,VOICE:${escapeText(l.phone)}`);
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
