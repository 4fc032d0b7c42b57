import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { openDatabase, preparePgliteDataDir } from './client';
import { runMigrations } from './migrate';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-pglite-dir-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe.skipIf(process.env.TEST_DB_KIND === 'postgres')('the embedded database on disk', () => {
  it('creates a new data dir in a child process, and leaves an existing one alone', { timeout: 60_000 }, async () => {
    const dir = path.join(root, 'direct');
    expect(await preparePgliteDataDir(dir, PGlite.defaultStartParams)).toBe('created');
    expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    expect(await preparePgliteDataDir(dir, PGlite.defaultStartParams)).toBe('existing');
  });

  it('opens a fresh data dir, migrates it, keeps what was written across a reopen', { timeout: 60_000 }, async () => {
    const dataDir = path.join(root, 'app');
    const first = await openDatabase({ dataDir });
    await runMigrations(first);
    await first.db.execute(sql`insert into subscribers (email) values ('kept@example.com')`);
    await first.close();
    const again = await openDatabase({ dataDir });
    const result = (await again.db.execute(sql`select email from subscribers`)) as unknown as { rows: { email: string }[] };
    expect(result.rows.map((r) => r.email)).toEqual(['kept@example.com']);
    await again.close();
  });
});
