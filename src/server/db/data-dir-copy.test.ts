import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyChanged, copyLoose } from './data-dir-copy';

/**
 * The backup's copy of the data dir (decision 38-06): copied loosely while the database writes, then
 * only what may have changed under the lock; afterwards the copy is exactly the source.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-dd-copy-'));
  dirs.push(d);
  return d;
};
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) {
        out[`${r}/`] = '';
        visit(r);
      } else out[r] = fs.readFileSync(path.join(root, r)).toString('hex');
    }
  };
  visit('');
  return out;
}

describe('data dir copy', () => {
  it('ends with exactly the source: pages rewritten in place (same size, same second), files added and removed, empty folders', async () => {
    const from = tmp();
    const to = path.join(tmp(), 'snap');
    fs.mkdirSync(path.join(from, 'base', '1'), { recursive: true });
    fs.mkdirSync(path.join(from, 'pg_tblspc'));
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(from, 'base', '1', String(i)), Buffer.alloc(8192, i));
    fs.writeFileSync(path.join(from, 'pg_wal'), Buffer.alloc(16384, 1));
    const state = await copyLoose(from, to);
    // the database writes on while the loose copy is being made
    const fd = fs.openSync(path.join(from, 'base', '1', '7'), 'r+');
    fs.writeSync(fd, Buffer.alloc(16, 0xee), 0, 16, 100);
    fs.closeSync(fd);
    fs.writeFileSync(path.join(from, 'base', '1', 'new'), 'new relation');
    fs.rmSync(path.join(from, 'base', '1', '3'));
    await copyLoose(from, to, state);
    fs.writeFileSync(path.join(from, 'pg_wal'), Buffer.alloc(16384, 2));
    fs.mkdirSync(path.join(from, 'base', '2'));
    fs.rmSync(path.join(from, 'base', '1', '4'));
    // under the lock
    copyChanged(from, to, state);
    expect(tree(to)).toEqual(tree(from));
  });

  it('copies under the lock only what may have changed', async () => {
    const from = tmp();
    const to = path.join(tmp(), 'snap');
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(from, String(i)), Buffer.alloc(4096, i));
    // files last written well before the copy (as most of a data dir is)
    const old = new Date(Date.now() - 60_000);
    for (let i = 0; i < 20; i++) fs.utimesSync(path.join(from, String(i)), old, old);
    const state = await copyLoose(from, to);
    fs.writeFileSync(path.join(from, '5'), Buffer.alloc(4096, 0xaa));
    const { files } = copyChanged(from, to, state);
    expect(files).toBe(1);
    expect(tree(to)).toEqual(tree(from));
  });
});
