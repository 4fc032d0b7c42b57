import { splitPersonName } from '#shared/person-name';

/**
 * CSV for spreadsheets (RFC 4180): every cell quoted, quotes doubled, CRLF between rows.
 * Cells that a spreadsheet would read as a formula (starting with = + - @, a tab or a carriage
 * return, also after leading spaces) get a leading apostrophe, so opening the export can never run
 * a customer's text as a formula.
 */
const FORMULA_START = /^[\s]*[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '""';
  let s = typeof value === 'number' ? String(value) : String(value);
  if (typeof value !== 'number' && FORMULA_START.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function csvRow(values: unknown[]): string {
  return values.map(csvCell).join(',') + '\r\n';
}

/** A UTF-8 byte-order mark first, so spreadsheet programs read accents and non-Latin names correctly. */
export const CSV_BOM = '\uFEFF';

/** HubSpot's contact import columns, named as its importer maps them without a mapping step (issue 36). */
export const CRM_CONTACT_HEADERS = ['First Name', 'Last Name', 'Email', 'Phone Number', 'Company Name', 'Job Title'] as const;

/** What a phone number may hold once checked on input: digits and + ( ) - . / # * x, spaces. */
const PHONE_TEXT = /^[0-9+()\-.\s/#*xX]+$/;

/**
 * The CRM contact cells of one person, in CRM_CONTACT_HEADERS order: the one name split by the
 * project's rule (splitPersonName), and a phone number written as it is. A phone such as
 * `+48 601 234 567` starts with `+` but holds no letters, so no function or link can be in it; the
 * formula guard's apostrophe would stay in the CRM as part of the number, so it is left off there
 * and kept for every other cell (decision 36-01).
 */
export function crmContactCells(c: { name: string; email?: string | null; phone?: string | null; company?: string | null; jobTitle?: string | null }): string {
  const { given, family } = splitPersonName(c.name);
  const phone = c.phone && PHONE_TEXT.test(c.phone) ? `"${c.phone}"` : csvCell(c.phone ?? '');
  return [csvCell(given), csvCell(family), csvCell(c.email ?? ''), phone, csvCell(c.company ?? ''), csvCell(c.jobTitle ?? '')].join(',');
}
