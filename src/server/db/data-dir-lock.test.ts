import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirBusyError, dataDirHolder, LOCK_FILE, lockDataDir } from './data-dir-lock';

/** DATA_DIR/server.pid (decision 38-02): one process on an embedded database; a dead holder never blocks a start. */
const dirs: string[] = [];
const fresh = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-lock-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('data dir lock', () => {
  it('takes a free dir, releases it, and refuses while another live Node.js process holds it', () => {
    const dir = fresh();
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    // this very process (a container restarted with the same pid) does not count as another
    expect(dataDirHolder(dir)).toBeNull();
    release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    fs.writeFileSync(path.join(dir, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);
  });

  it('takes over the file of a process that is gone', () => {
    const dir = fresh();
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
    fs.writeFileSync(path.join(dir, LOCK_FILE), `${gone}\n`);
    expect(dataDirHolder(dir)).toBeNull();
    lockDataDir(dir)();
  });
});
