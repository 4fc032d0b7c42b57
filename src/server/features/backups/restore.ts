import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { DataDirBusyError, lockDataDir } from '#server/db/data-dir-lock';
import type { S3StorageOptions } from '#server/infra/s3-storage';
import { readBackupFile, type BackupManifest } from './archive';
import { listTables, type Queryable } from './copy-database';
import { sha256 } from './copy-files';
import { MoveRefused, runMove, type MoveReport } from './move';
import { createProgress, type Progress } from './progress';

const gunzip = promisify(zlib.gunzip);

export interface RestoreReport {
  manifest: BackupManifest;
  tables: Array<{ table: string; rows: number }>;
  files: { listed: number; restored: number; missing: string[]; mismatches: string[] };
  /** when restored into PostgreSQL */
  move?: MoveReport;
}

/**
 * `npm run restore -- FILE`: a backup into a fresh DATA_DIR (the database unpacked by PGlite
 * itself, the files written back and checked against the manifest's SHA-256), or, with
 * `databaseUrl`, into a PostgreSQL database (through a scratch data dir and the move). Decision 38-02.
 */
export async function runRestore(opts: { file: string; dataDir: string; databaseUrl?: string; bucket?: S3StorageOptions; force?: boolean; progress?: Progress }): Promise<RestoreReport> {
  const progress = opts.progress ?? createProgress();
  if (!fs.existsSync(opts.file)) throw new MoveRefused(`No such backup file: ${opts.file}`);
  // into PostgreSQL: unpack into a scratch data dir, then move it
  const dataDir = opts.databaseUrl ? fs.mkdtempSync(path.join(os.tmpdir(), 'mc-restore-')) : opts.dataDir;
  const scratch = !!opts.databaseUrl;
  try {
    if (!scratch && fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))) {
      throw new MoveRefused(`${dataDir} already holds a database. Restore into a fresh DATA_DIR (an empty or new folder), then point the server at it.`);
    }
    let release = () => {};
    try {
      release = lockDataDir(dataDir);
    } catch (e) {
      if (e instanceof DataDirBusyError) throw new MoveRefused(`A server is running on ${dataDir} (process ${e.pid}). Restore into a fresh DATA_DIR.`);
      throw e;
    }
    try {
      progress.line(`Reading ${opts.file}...`);
      const filesRoot = path.join(dataDir, 'files');
      const seen = new Map<string, string>();
      const { manifest, databaseGz } = await readBackupFile(opts.file, async (key, data) => {
        if (!/^[a-z0-9][a-z0-9/_.-]{0,200}$/.test(key) || key.includes('..') || key.includes('//')) return; // never outside files/
        const target = path.join(filesRoot, ...key.split('/'));
        await fsp.mkdir(path.dirname(target), { recursive: true });
        await fsp.writeFile(target, data);
        seen.set(key, sha256(data));
        progress.update('files read back', seen.size, seen.size);
      });
      progress.done();
      const missing: string[] = [];
      const mismatches: string[] = [];
      if (manifest.filesIncluded) {
        for (const f of manifest.files) {
          const got = seen.get(f.key);
          if (got === undefined) missing.push(f.key);
          else if (got !== f.sha256) mismatches.push(f.key);
        }
      }

      progress.line('Unpacking the database...');
      const { PGlite } = await import('@electric-sql/pglite');
      const tarball = await gunzip(databaseGz);
      fs.mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
      const db = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), loadDataDir: new Blob([tarball]) });
      const tables: RestoreReport['tables'] = [];
      try {
        for (const t of await listTables(db as unknown as Queryable)) {
          const { rows } = await db.query<{ n: string }>(`select count(*)::text as n from "${t}"`);
          tables.push({ table: t, rows: Number(rows[0].n) });
        }
      } finally {
        await db.close();
      }
      const report: RestoreReport = { manifest, tables, files: { listed: manifest.files.length, restored: seen.size, missing, mismatches } };
      if (scratch) {
        release();
        release = () => {};
        report.move = await runMove({ dataDir, databaseUrl: opts.databaseUrl!, bucket: opts.bucket, force: opts.force, progress });
      }
      return report;
    } finally {
      release();
    }
  } finally {
    if (scratch) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatRestoreReport(r: RestoreReport, target: string): string {
  const lines = [`Backup of ${r.manifest.createdAt} restored into ${target}.`];
  const rows = r.tables.reduce((n, t) => n + t.rows, 0);
  lines.push(`Database: ${r.tables.length} tables, ${rows} rows (${r.tables.filter((t) => ['orders', 'users', 'profiles', 'visits'].includes(t.table)).map((t) => `${t.table} ${t.rows}`).join(', ')}).`);
  if (r.manifest.filesIncluded) {
    lines.push(
      `Files: ${r.files.restored} of ${r.files.listed} restored` +
        (r.files.missing.length || r.files.mismatches.length ? `; ${r.files.missing.length} missing, ${r.files.mismatches.length} with a different checksum` : ', every SHA-256 checksum matches') +
        '.',
    );
    for (const k of [...r.files.missing, ...r.files.mismatches].slice(0, 20)) lines.push(`  ${k}`);
  } else lines.push(`Files: ${r.files.listed} listed; they live in the bucket (not inside the backup).`);
  return lines.join('\n');
}
