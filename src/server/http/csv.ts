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
