import { InviteInput, TEAM_LIMITS, type RefusedRow } from '#shared/schemas/team';
import { badRequest } from '#server/http/http-errors';

/**
 * Reads the members CSV (name, e-mail, job title, phone; role optional): RFC 4180 quoting, comma or
 * semicolon separated (as spreadsheets in some locales save it), a header row naming the columns in
 * any order and any case. Answers each row as an invitation to make, or refused with its reason.
 */
export function parseCsv(text: string): string[][] {
  const src = text.replace(/^\uFEFF/, '');
  const firstLine = src.split(/\r?\n/, 1)[0] ?? '';
  const sep = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  /** every cell of the row so far is blank */
  let blank = true;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      // the quoted text up to the next quote in one piece (a long quoted field is one slice, not
      // a million one-character appends)
      const q = src.indexOf('"', i);
      if (q < 0) {
        cell += src.slice(i);
        break;
      }
      if (q > i) {
        cell += src.slice(i, q);
        i = q - 1;
        continue;
      }
      // here a quote: doubled, it is one quote of the text; alone, it ends the quoted part
      if (src[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === sep) {
      if (blank && cell.trim() !== '') blank = false;
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      if (blank && cell.trim() !== '') blank = false;
      // a blank line is dropped here (as by the filter below) without keeping an array for it:
      // a 1 MB file of line ends is a million of them
      if (blank) row.length = 0;
      else {
        row.push(cell);
        rows.push(row);
        row = [];
      }
      blank = true;
      cell = '';
    } else {
      // plain text up to the next separator or line end in one slice
      const sepCode = sep.charCodeAt(0);
      let j = i + 1;
      for (let c = src.charCodeAt(j); j < src.length && c !== sepCode && c !== 10 && c !== 13; c = src.charCodeAt(++j));
      cell += src.slice(i, j);
      i = j - 1;
    }
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

const COLUMNS: Record<'fullName' | 'email' | 'jobTitle' | 'phone' | 'role', string[]> = {
  fullName: ['name', 'full name', 'fullname', 'full_name'],
  email: ['email', 'e-mail', 'email address', 'e-mail address', 'mail'],
  jobTitle: ['job title', 'jobtitle', 'job_title', 'title', 'position'],
  phone: ['phone', 'phone number', 'phonenumber', 'phone_number', 'mobile', 'telephone'],
  role: ['role'],
};

const norm = (h: string) => h.trim().toLowerCase().replace(/\s+/g, ' ');

export interface ImportRows {
  candidates: { row: number; input: InviteInput }[];
  refused: RefusedRow[];
}

export function readMembersCsv(text: string): ImportRows {
  if (/\u0000/.test(text)) throw badRequest('The file is not a CSV text file', { file: 'Upload a .csv file saved as text (UTF-8)' });
  const rows = parseCsv(text);
  if (!rows.length) throw badRequest('The file is empty', { file: 'The file has no rows' });
  const header = rows[0].map(norm);
  const index = Object.fromEntries(Object.entries(COLUMNS).map(([k, names]) => [k, header.findIndex((h) => names.includes(h))])) as Record<keyof typeof COLUMNS, number>;
  if (index.email < 0) {
    throw badRequest('The file needs a header row with an "email" column', { file: 'First row: name, email, job title, phone' });
  }
  const data = rows.slice(1);
  if (data.length > TEAM_LIMITS.maxImportRows) {
    throw badRequest(`At most ${TEAM_LIMITS.maxImportRows} people per file`, { file: `The file has ${data.length} rows; split it in files of ${TEAM_LIMITS.maxImportRows}` });
  }
  const out: ImportRows = { candidates: [], refused: [] };
  data.forEach((cells, i) => {
    const get = (k: keyof typeof COLUMNS) => (index[k] >= 0 ? (cells[index[k]] ?? '').trim() : '');
    const email = get('email');
    const role = get('role').toLowerCase();
    const parsed = InviteInput.safeParse({
      email,
      fullName: get('fullName') || null,
      jobTitle: get('jobTitle') || null,
      phone: get('phone') || null,
      role: role || 'member',
    });
    if (parsed.success) out.candidates.push({ row: i + 1, input: parsed.data });
    else {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? 'email');
      const label = { email: 'E-mail', fullName: 'Name', jobTitle: 'Job title', phone: 'Phone', role: 'Role' }[field] ?? field;
      out.refused.push({ row: i + 1, email, reason: `${label}: ${issue?.message ?? 'invalid'}` });
    }
  });
  return out;
}
