// Test files share their worker process (isolate: false, vitest.config.ts): a module mocked by one
// file stays mocked for the next file in that worker. A mocked session hook once made a later file's
// signed-in page redirect forever in a synchronous render loop, which hung CI for 48 minutes
// (decision 45-01). So no test file mocks modules; tests answer at the boundaries instead (fetch in
// the web's component tests, stand-in servers elsewhere).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

function testFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) testFiles(rel, out);
    else if (/\.(test|e2e)\.tsx?$/.test(e.name) || /^(tests\/(setup|helpers)|src\/web\/test)\//.test(rel)) out.push(rel);
  }
  return out;
}

describe('test isolation', () => {
  it('no test file or test helper mocks a module (files share their worker)', () => {
    const files = [...testFiles('src'), ...testFiles('tests')];
    expect(files.length).toBeGreaterThan(100);
    const mocking = files.filter((f) => /\bvi\s*\.\s*(mock|doMock|hoisted)\s*\(/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(mocking).toEqual([]);
  });
});
