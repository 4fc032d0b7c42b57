import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Lead } from '#shared/schemas/engagement';
import { TEAM_LEADS_CSV_HEADERS } from '#shared/schemas/team';
import { leadsCsv } from '#server/features/engagement/leads-export';
import { CRM_CONTACT_HEADERS } from '#server/http/csv';
import { NAMES_IN_SCRIPTS } from './tools';

/**
 * Issue 36: the user's leads CSV imports into HubSpot as it is: RFC 4180 read by csv-parse in strict
 * mode, HubSpot's contact header names (the same as the team CSV), phone numbers without the
 * formula guard's apostrophe, names split by the project's one rule (decision 36-01).
 */
const HUBSPOT_HEADERS = ['First Name', 'Last Name', 'Email', 'Phone Number', 'Company Name', 'Job Title'];

const strict = (text: string) =>
  parse(text, { bom: true, columns: true, relax_quotes: false, relax_column_count: false, skip_empty_lines: false, record_delimiter: '\r\n' }) as Array<Record<string, string>>;

let id = 0;
const lead = (o: Partial<Lead>): Lead => ({ id: ++id, name: 'Ada Lovelace', email: 'ada@example.com', phone: null, company: null, note: null, consent: true, createdAt: '2026-11-26T10:00:00.000Z', ...o });

describe('leads CSVs: strict RFC 4180 and HubSpot headers', () => {
  it("the user's leads CSV starts with HubSpot's contact headers, the team CSV's too", () => {
    const [header] = parse(leadsCsv([]), { bom: true, to_line: 1 }) as string[][];
    expect(header.slice(0, 6)).toEqual(HUBSPOT_HEADERS);
    expect([...CRM_CONTACT_HEADERS]).toEqual(HUBSPOT_HEADERS);
    expect(TEAM_LEADS_CSV_HEADERS.slice(0, 6)).toEqual(HUBSPOT_HEADERS);
  });

  it('phones as they are (no apostrophe), formula guard elsewhere, compound names split by the rule, any script', () => {
    const rows = strict(
      leadsCsv([
        lead({ name: "Zoë O'Brien-Łukasz", company: 'Müller & Söhne, Inc.', phone: '+48 601 234 567' }),
        lead({ name: 'Jan van der Berg', phone: '(212) 555-0100' }),
        lead({ name: 'María García López', company: '=HYPERLINK("http://evil.example")', note: '@SUM(A1)' }),
        ...NAMES_IN_SCRIPTS.map((name) => lead({ name })),
      ]),
    );
    expect(rows[0]).toMatchObject({ 'First Name': 'Zoë', 'Last Name': "O'Brien-Łukasz", 'Company Name': 'Müller & Söhne, Inc.', 'Phone Number': '+48 601 234 567' });
    expect(rows[1]).toMatchObject({ 'First Name': 'Jan', 'Last Name': 'van der Berg', 'Phone Number': '(212) 555-0100' });
    expect(rows[2]).toMatchObject({ 'First Name': 'María', 'Last Name': 'García López', 'Company Name': `'=HYPERLINK("http://evil.example")`, Message: "'@SUM(A1)" });
    NAMES_IN_SCRIPTS.forEach((name, i) => expect(`${rows[3 + i]['First Name']} ${rows[3 + i]['Last Name']}`.trim()).toBe(name));
  });

  it('generated leads: always strict-parseable, one row each, no apostrophe on a phone, nothing but a phone starts a formula', () => {
    const phone = fc.stringMatching(/^\+?[0-9][0-9 ()\-.]{5,20}$/);
    fc.assert(
      fc.property(fc.array(fc.record({ name: fc.string({ minLength: 1, maxLength: 60 }), phone: fc.option(phone), company: fc.option(fc.string()), note: fc.option(fc.string()) }), { maxLength: 8 }), (list) => {
        const rows = strict(leadsCsv(list.map((l) => lead(l))));
        expect(rows).toHaveLength(list.length);
        rows.forEach((r, i) => {
          expect(r['Phone Number']).toBe(list[i].phone ?? '');
          for (const [k, v] of Object.entries(r)) if (k !== 'Phone Number') expect(v).not.toMatch(/^\s*[=+\-@\t\r]/);
        });
      }),
      { numRuns: 100 },
    );
  });
});
