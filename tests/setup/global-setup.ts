import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '#server/db/client';
import { runMigrations } from '#server/db/migrate';

/**
 * Builds a migrated PGlite data dir once per run and dumps it; each test file then loads a copy
 * (about 1 s instead of about 4 s for a fresh one). The dump is keyed by the migrations' content.
 */
export default async function setup() {
  const root = path.resolve(__dirname, '../..');
  const dir = path.join(root, '.tmp');
  fs.mkdirSync(dir, { recursive: true });
  const migrations = fs
    .readdirSync(path.join(root, 'drizzle'))
    .filter((f) => f.endsWith('.sql'))
    .map((f) => fs.readFileSync(path.join(root, 'drizzle', f), 'utf8'))
    .join('\n');
  const { createHash } = await import('node:crypto');
  const key = createHash('sha256').update(migrations).digest('hex').slice(0, 16);
  const file = path.join(dir, `pglite-template-${key}.tar.gz`);
  if (!fs.existsSync(file)) {
    const lock = file + '.lock';
    // two projects may run this at once: the first writes, the other waits for the file
    let owner = false;
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      owner = true;
    } catch {}
    if (owner) {
      try {
        const db = await openDatabase({ memory: true });
        await runMigrations(db);
        const dump: Blob = await (db.raw as any).dumpDataDir('gzip');
        fs.writeFileSync(file + '.part', Buffer.from(await dump.arrayBuffer()));
        fs.renameSync(file + '.part', file);
        await db.close();
      } finally {
        fs.rmSync(lock, { force: true });
      }
    } else {
      const until = Date.now() + 120_000;
      while (!fs.existsSync(file) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      if (!fs.existsSync(file)) throw new Error('PGlite template dump was not created');
    }
  }
  process.env.PGLITE_TEMPLATE = file;
  // tests measure behaviour, not speed: heavy work keeps a milder priority (nice 10) so render
  // tests are not starved by the suite's own parallel files on a 2-core CI machine
  process.env.WORKER_NICE ??= '10';
  return () => {};
}
