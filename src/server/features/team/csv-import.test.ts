import { bestCpuMs } from '#tests/helpers/cpu';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEAM_LIMITS } from '#shared/schemas/team';
import { HttpError } from '#server/http/http-errors';
import { readMembersCsv } from './csv-import';
import { readMembersCsvTask } from './csv-import.task';

/**
 * The members CSV parser on hostile text (issue 32): it runs in the sandbox with a deadline, and
 * it is one linear pass, so a file at the byte cap (1 MB) of any shape is read in well under a
 * second: long quoted fields, unclosed quotes, runs of separators, quotes or line ends.
 */
const CAP = TEAM_LIMITS.importMaxBytes;

/** Reads the text; a refusal is a 400 with a message (never anything else). */
function read(text: string): string {
  try {
    const rows = readMembersCsv(text);
    return `${rows.candidates.length}+${rows.refused.length}`;
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    expect((e as HttpError).statusCode).toBe(400);
    return (e as HttpError).message;
  }
}

/**
 * Milliseconds of CPU this process spends reading `text`, best of two: CPU, not the clock, so
 * waiting for a core while other test files run does not count (a shared machine's noise is
 * one-sided).
 */
function timeRead(text: string): number {
  return bestCpuMs(() => read(text), 2);
}

/**
 * Linear means a hostile file costs about what an ordinary file of the same size does: the bound
 * is relative to a 1 MB file of ordinary rows read under the same load (a quadratic or
 * allocation-bound path is many times that: a million blank lines took 15x).
 */
let ordinaryMs = 0;
let ordinaryText = '';
const bound = () => 8 * ordinaryMs + 300;

/**
 * Whether `text` reads within the bound. Other test files share the two cores, and a busy moment
 * only ever makes a read slower: over the bound, the yardstick and the text are timed again, up to
 * three times, and the best pair decides (a quadratic path stays many times over on every try).
 */
function readsInLinearTime(text: string): { ok: boolean; ms: number } {
  let ms = timeRead(text);
  for (let tries = 1; ms >= bound() && tries < 3; tries++) {
    ordinaryMs = Math.min(ordinaryMs, timeRead(ordinaryText));
    ms = Math.min(ms, timeRead(text));
  }
  return { ok: ms < bound(), ms };
}

describe('members CSV parser on hostile input', () => {
  it('an ordinary 1 MB file (the yardstick)', () => {
    const row = 'Person Name,person.name@example.com,Sales Engineer,+1 212 555 0100\n';
    ordinaryText = `name,email,job title,phone\n${row.repeat(Math.floor((CAP - 30) / row.length))}`;
    ordinaryMs = timeRead(ordinaryText);
    expect(ordinaryMs).toBeLessThan(5000);
  });

  it('reads generated 1 MB files of every hostile shape in linear time', () => {
    const unit = fc.constantFrom(',', ';', '"', '""', '\n', '\r', '\r\n', 'a', ' ', 'email', 'x@example.com', '"a,b"', '\u00e9', '\t');
    const head = fc.constantFrom('', 'email\n', 'name,email\n', 'email;name\n', '"', 'email,"');
    fc.assert(
      fc.property(head, fc.array(unit, { minLength: 1, maxLength: 4 }), fc.boolean(), (h, units, unclosed) => {
        const piece = units.join('');
        const text = (h + piece.repeat(Math.ceil((CAP - h.length) / piece.length))).slice(0, CAP - 1) + (unclosed ? '"' : '');
        const r = readsInLinearTime(text);
        expect(r.ok, JSON.stringify({ h, piece, ms: r.ms, ordinaryMs })).toBe(true);
      }),
      { numRuns: 25, seed: 32 },
    );
  });

  it('named worst cases: one long quoted field, an unclosed quote, a million commas, a million line ends', () => {
    const cases = {
      quoted: `email\n"${'a'.repeat(CAP - 10)}"`,
      unclosed: `email\n"${'a,'.repeat((CAP - 10) / 2)}`,
      commas: `email\n${','.repeat(CAP - 7)}`,
      semicolons: `email;name\n${';'.repeat(CAP - 12)}`,
      quotes: `email\n${'"'.repeat(CAP - 7)}`,
      lines: `email\n${'\n'.repeat(CAP - 7)}`,
      rows: `email\n${'x@example.com\n'.repeat(Math.floor((CAP - 7) / 14))}`,
    };
    for (const [name, text] of Object.entries(cases)) {
      // each is about 0.1 s; a million line ends took 2-2.7 s when every blank line was kept as a row
      const r = readsInLinearTime(text);
      expect(r.ok, `${name}: ${r.ms.toFixed(0)} ms (ordinary file: ${ordinaryMs.toFixed(0)} ms)`).toBe(true);
    }
    expect(read(cases.rows)).toBe(`At most ${TEAM_LIMITS.maxImportRows} people per file`);
  });

  it('the task decodes the bytes as UTF-8 and answers what the parser answers', () => {
    const text = '\uFEFFName;E-mail;Role\n"Zo\u00eb ""Z"" Adams";zoe@example.com;admin\nBob;not-an-email;\n';
    expect(readMembersCsvTask({ bytes: new Uint8Array(Buffer.from(text, 'utf8')) })).toEqual(readMembersCsv(text));
  });
});
