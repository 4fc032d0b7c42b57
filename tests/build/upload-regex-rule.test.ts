import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MAIN_THREAD_FILES } from '../../scripts/lint/upload-regex.js';

/**
 * The rule no-upload-regex (scripts/lint/upload-regex.js, issue 32): no regular expression over
 * upload text in the files that handle uploads on the request thread, unless the line says why the
 * look is bounded. static-checks.test.ts lints the whole tree; this proves the rule bites.
 */
const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function regexErrors(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'uploads/no-upload-regex');
}

describe('lint: no regular expression over upload text on the request thread', () => {
  const file = 'src/server/infra/images/images.ts';

  it('refuses literals, new RegExp and names bound to either, with every string method', async () => {
    const uses = [
      'export const a = (t: string) => /<svg[^>]*>/.test(t);',
      'export const a = (t: string) => /x+/.exec(t);',
      'export const a = (t: string) => t.match(/a+b/);',
      'export const a = (t: string) => [...t.matchAll(/a/g)];',
      "export const a = (t: string) => t.replace(/\\s+/g, ' ');",
      "export const a = (t: string) => t.replaceAll(/x/g, '');",
      'export const a = (t: string) => t.search(/y/);',
      'export const a = (t: string) => t.split(/\\r?\\n/);',
      "export const a = (t: string) => new RegExp('<(script|html)', 'i').test(t);",
      "export const a = (t: string) => t.split(RegExp(','));",
      'const MARKERS = /<script/i;\nexport const a = (t: string) => MARKERS.test(t);',
      'export const a = (t: string) => MARKERS.test(t);\nconst MARKERS = /<script/i;',
    ];
    for (const code of uses) expect(await regexErrors(file, code), code).toHaveLength(1);
  });

  it('allows a line that says why it is bounded (on it or just above), and string patterns', async () => {
    expect(await regexErrors(file, "export const a = (t: string) => /^<svg/.test(t.slice(0, 4096)); // bounded: the first 4 KB\n")).toEqual([]);
    expect(await regexErrors(file, "// bounded: a request header\nexport const a = (t: string) => /^x/.test(t);\n")).toEqual([]);
    expect(await regexErrors(file, "export const a = (t: string) => t.split(',').map((c) => c.replace('\"', ''));\n")).toEqual([]);
    // a bare "bounded:" without its reason does not count
    expect(await regexErrors(file, 'export const a = (t: string) => /^x/.test(t); // bounded:\n')).toHaveLength(1);
  });

  it('covers every main-thread upload file, and not tests or tasks', async () => {
    const code = 'export const a = (t: string) => /a+/.test(t);\n';
    for (const f of ['src/server/http/multipart.ts', 'src/server/features/team/team.routes.ts', 'src/server/features/orders/artwork.service.ts', 'src/server/features/ai/image-intake.ts'])
      expect(await regexErrors(f, code), f).toHaveLength(1);
    for (const f of ['src/server/features/uploads/uploads.test.ts', 'src/server/infra/images/images.task.ts', 'src/server/features/team/csv-import.task.ts', 'src/server/features/profile/x.ts'])
      expect(await regexErrors(f, code), f).toEqual([]);
    expect(UPLOAD_MAIN_THREAD_FILES.length).toBeGreaterThan(5);
  });

  it('the tree has none', async () => {
    const results = await eslint.lintFiles(UPLOAD_MAIN_THREAD_FILES);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'uploads/no-upload-regex').map((m) => `${path.relative(root, r.filePath)}:${m.line}`));
    expect(found).toEqual([]);
    expect(results.length).toBeGreaterThan(10);
  });
});
