import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobTicketTask, type JobTicketData } from '#server/features/production/job-ticket.task';
import { jigSheetTask } from '#server/features/production/sheet.task';
import { NAMES_IN_SCRIPTS, missingTools, run } from './tools';

/**
 * Issue 36: every PDF with text (job ticket, jig sheet) embeds its fonts and keeps names in any
 * script we support as Unicode text: checked by qpdf and poppler, not by our code. (The print PDF has
 * no text objects: its text is outlines, checked in src/server/features/print/print.test.ts.)
 * Chinese, Japanese and Korean names are drawn with Noto Sans SC/JP/KR (decision 36-03).
 */
const CJK_NAMES = ['王小明', '山田 太郎', '김민준', '佐藤 さくら', '陳美玲'];
const skip = missingTools('qpdf', 'pdffonts', 'pdftotext');
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standards-pdf-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function ticket(name: string, company: string): JobTicketData {
  return {
    orderId: 42,
    title: `Order #42 - ${name}`,
    dueLabel: 'Mon, Dec 1',
    dueAt: '2026-12-01T17:00:00.000Z',
    overdue: false,
    rush: false,
    rows: [
      ['Customer', name],
      ['Company', company],
      ['Card', 'Black steel'],
    ],
    codes: [{ code: 'AB12CD', url: 'https://cards.test/c/AB12CD', tlvHex: '03 11 D1 01 0D 55 04', bytes: 19, fitsNtag213: true, fitsNtag215: true }],
    notes: [`Engrave "${name}" exactly`],
    adminUrl: 'https://cards.test/admin/orders/42',
    generatedAt: '2026-11-26 10:00',
  };
}

/** qpdf --check passes; pdffonts lists at least one font and every one is embedded; the text is back. */
function validate(bytes: Uint8Array, base: string, fonts: string[] = []): string {
  const file = path.join(dir, `${base}.pdf`);
  fs.writeFileSync(file, bytes);
  expect(run('qpdf', ['--check', file])).toMatch(/No syntax or stream encoding errors found/);
  const rows = run('pdffonts', [file]).trim().split('\n').slice(2);
  expect(rows.length).toBeGreaterThan(0);
  // columns: name type encoding emb sub uni object ID; "emb" must be "yes" on every row
  for (const row of rows) expect(row.split(/\s+/).slice(-5, -4)[0], `font not embedded: ${row}`).toBe('yes');
  fonts.push(...rows.map((row) => row.split(/\s+/)[0]));
  return run('pdftotext', ['-enc', 'UTF-8', file, '-']).normalize('NFC');
}

describe.skipIf(!!skip)(`PDFs through qpdf, pdffonts and pdftotext${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('the job ticket: names in Latin Extended, Greek, Cyrillic and Vietnamese survive a pdftotext round trip; fonts embedded', async () => {
    const text = validate(await jobTicketTask(ticket(NAMES_IN_SCRIPTS.join(' / '), NAMES_IN_SCRIPTS[1])), 'ticket');
    const flat = text.replace(/\s+/g, ' ');
    for (const name of NAMES_IN_SCRIPTS) expect(flat, `job ticket lost ${name}`).toContain(name);
  }, 30_000);

  it('the job ticket: Chinese, Japanese and Korean names survive a pdftotext round trip, drawn with embedded Noto Sans faces', async () => {
    const fonts: string[] = [];
    const text = validate(await jobTicketTask(ticket(`${CJK_NAMES.join(' / ')} Zoë`, '株式会社 山田商事')), 'ticket-cjk', fonts);
    const flat = text.replace(/\s+/g, ' ');
    for (const name of [...CJK_NAMES, '株式会社 山田商事']) expect(flat, `job ticket lost ${name}`).toContain(name);
    // Inter for the Latin text, a Noto Sans face for each script (pdfkit subsets each file it uses)
    for (const family of ['Inter', 'NotoSansSC', 'NotoSansJP', 'NotoSansKR']) expect(fonts.join('\n')).toContain(`+${family}-`);
    // the bold title uses the bold CJK faces
    expect(fonts.join('\n')).toMatch(/NotoSans(SC|JP|KR)-Bold/);
  }, 30_000);

  it('the jig sheet: slot labels in every script survive; fonts embedded', async () => {
    const names = [...NAMES_IN_SCRIPTS, ...CJK_NAMES];
    const slots = names.map((label) => ({ label, front: null, back: null }));
    const fonts: string[] = [];
    const text = validate(await jigSheetTask({ rows: 4, columns: 4, gapMm: 3, registrationMarks: true, slots }), 'sheet', fonts);
    const flat = text.replace(/\s+/g, ' ');
    for (const name of names) expect(flat, `jig sheet lost ${name}`).toContain(name);
    for (const family of ['NotoSansSC', 'NotoSansJP', 'NotoSansKR']) expect(fonts.join('\n')).toContain(`+${family}-Regular`);
  }, 30_000);

  it('the jig sheet: a label too long for its slot is cut with an ellipsis, CJK runs included', async () => {
    const label = '山田商事株式会社 '.repeat(12).trim();
    const text = validate(await jigSheetTask({ rows: 1, columns: 1, gapMm: 3, registrationMarks: false, slots: [{ label, front: null, back: null }] }), 'sheet-long');
    const line = text.split('\n').find((l) => l.startsWith('1. '))!;
    expect(line).toMatch(/^1\. 山田商事株式会社 山田商事.*…$/);
    expect(line.length).toBeLessThan(label.length);
  }, 30_000);
});
