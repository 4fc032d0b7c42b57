import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '#server/db/client';
import { runMigrations } from '#server/db/migrate';
import { DataDirBusyError, lockDataDir } from '#server/db/data-dir-lock';
import { S3Storage, type S3StorageOptions } from '#server/infra/s3-storage';
import { copyDatabase, finishMove, stateTableExists, targetHasData, type Queryable, type TableReport } from './copy-database';
import { copyFiles, type FileCopyReport } from './copy-files';
import { createProgress, type Progress } from './progress';

export interface MoveOptions {
  /** the DATA_DIR to read (pglite/ and files/) */
  dataDir: string;
  /** the PostgreSQL database to fill */
  databaseUrl: string;
  /** copy DATA_DIR/files to this bucket too */
  bucket?: S3StorageOptions;
  /** fill a target that already holds data (its tables are emptied first) */
  force?: boolean;
  progress?: Progress;
  /** the data dir is already locked by the caller (restore) */
  locked?: boolean;
}

export interface MoveReport {
  ok: boolean;
  tables: TableReport[];
  sequences: number;
  files: FileCopyReport | null;
  mismatches: string[];
  seconds: number;
}

/** A refusal the command explains and exits 2 on (nothing was written). */
export class MoveRefused extends Error {}

/** Without the password, for messages. */
export const redactUrl = (url: string) => {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(the database URL)';
  }
};

/**
 * `npm run move`: the embedded database and files in DATA_DIR to PostgreSQL (and a bucket).
 * Decision 38-02.
 */
export async function runMove(opts: MoveOptions): Promise<MoveReport> {
  const started = performance.now();
  const progress = opts.progress ?? createProgress();
  const pgliteDir = path.join(opts.dataDir, 'pglite');
  if (!fs.existsSync(path.join(pgliteDir, 'PG_VERSION'))) throw new MoveRefused(`There is no embedded database in ${opts.dataDir} (no pglite/PG_VERSION). Set DATA_DIR to the server's data dir.`);
  let release = () => {};
  if (!opts.locked) {
    try {
      release = lockDataDir(opts.dataDir);
    } catch (e) {
      if (e instanceof DataDirBusyError) throw new MoveRefused(`The server is running on ${opts.dataDir} (process ${e.pid}). Stop it first: the move copies a database nobody writes to.`);
      throw e;
    }
  }
  const target = new pg.Client({ connectionString: opts.databaseUrl, connectionTimeoutMillis: 5000, keepAlive: true });
  target.on('error', () => {});
  let source: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    try {
      await target.connect();
    } catch (e) {
      throw new MoveRefused(`Cannot connect to ${redactUrl(opts.databaseUrl)}: ${(e as Error).message}`);
    }
    const resuming = await stateTableExists(target);
    const holding = resuming ? [] : await targetHasData(target);
    if (holding.length && !opts.force) {
      throw new MoveRefused(
        `The target database already holds data (${holding.slice(0, 5).join(', ')}${holding.length > 5 ? ', ...' : ''}). Nothing was written. ` +
          'Point --to-database at a new, empty database, or add --force to empty its tables and fill them from DATA_DIR.',
      );
    }
    progress.line(resuming ? 'Resuming an interrupted move: tables already copied are kept.' : `Moving ${opts.dataDir} to ${redactUrl(opts.databaseUrl)}`);

    progress.line('Opening the embedded database and applying this version\'s migrations to it...');
    source = await openDatabase({ dataDir: opts.dataDir });
    await runMigrations(source);
    progress.line('Migrating the target database to the same version...');
    const targetDb = await openDatabase({ databaseUrl: opts.databaseUrl, poolSize: 1 });
    try {
      await runMigrations(targetDb);
    } finally {
      await targetDb.close();
    }

    const copy = await copyDatabase(source.raw as Queryable, target as unknown as Queryable, {
      fresh: !resuming,
      onProgress: ({ table, done, total, tableIndex, tables }) => progress.update(`table ${tableIndex + 1}/${tables} ${table}`, done, total),
    });
    progress.done();

    let files: FileCopyReport | null = null;
    if (opts.bucket) {
      const storage = await S3Storage.create({ ...opts.bucket, timeoutMs: 60_000 });
      try {
        await storage.check();
        files = await copyFiles(path.join(opts.dataDir, 'files'), storage, { onProgress: (done, total) => progress.update('files', done, total) });
      } finally {
        storage.close?.();
      }
      progress.done();
    }
    const mismatches = [...copy.mismatches, ...(files?.mismatches.map((k) => `file ${k}: checksum differs in the bucket`) ?? [])];
    const ok = mismatches.length === 0;
    if (ok) await finishMove(target as unknown as Queryable);
    return { ok, tables: copy.tables, sequences: copy.sequences, files, mismatches, seconds: (performance.now() - started) / 1000 };
  } finally {
    await source?.close().catch(() => undefined);
    await target.end().catch(() => undefined);
    release();
  }
}

/** The short report printed at the end. */
export function formatMoveReport(r: MoveReport): string {
  const lines: string[] = [];
  const rows = r.tables.reduce((n, t) => n + t.source, 0);
  const width = Math.max(...r.tables.map((t) => t.table.length), 5);
  lines.push(`${'table'.padEnd(width)}  ${'embedded'.padStart(10)}  ${'postgres'.padStart(10)}`);
  for (const t of r.tables) lines.push(`${t.table.padEnd(width)}  ${String(t.source).padStart(10)}  ${String(t.target).padStart(10)}  ${t.source === t.target ? 'ok' : 'DIFFERS'}${t.copied ? '' : ' (copied by an earlier run)'}`);
  lines.push('');
  lines.push(`${r.tables.length} tables, ${rows} rows: ${r.tables.every((t) => t.source === t.target) ? 'every count matches' : 'COUNTS DIFFER'}; ${r.sequences} sequences set.`);
  if (r.files) {
    lines.push(
      `${r.files.files} files (${(r.files.bytes / 1024 / 1024).toFixed(1)} MB): ${r.files.uploaded} sent, ${r.files.skipped} already in the bucket; ` +
        (r.files.mismatches.length ? `${r.files.mismatches.length} CHECKSUMS DIFFER` : 'every SHA-256 checksum matches'),
    );
  } else lines.push('Files: not moved (add --to-bucket with the S3_* settings to copy DATA_DIR/files to the bucket).');
  for (const m of r.mismatches.slice(0, 20)) lines.push(`  ${m}`);
  lines.push(`Took ${r.seconds.toFixed(1)} s.`);
  lines.push(
    r.ok
      ? 'Done. Start the instances with DATABASE_URL' + (r.files ? ' and the S3_* settings' : '') + ' (docs/operations.md, "Moving to several instances").'
      : 'NOT DONE: run the command again to copy what differs.',
  );
  return lines.join('\n');
}
