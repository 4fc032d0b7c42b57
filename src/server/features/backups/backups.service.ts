import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { AppContext } from '#server/context';
import type { AppConfig } from '#server/env';
import { conflict } from '#server/http/http-errors';
import { projectRoot } from '#server/infra/paths';
import { S3Storage } from '#server/infra/s3-storage';
import type { BackupInfo } from '#shared/schemas/backups';
import { BACKUP_FORMAT, tarDataDir, writeBackupFile, type BackupManifest } from './archive';
import { fileManifest } from './copy-files';
import { copyChanged, copyLoose } from '#server/db/data-dir-copy';

/**
 * Online backups of the embedded database (issue 38, decisions 38-02 and 38-06). PGlite has one
 * session, so a consistent copy needs a moment when no statement runs: the data dir is copied while
 * statements run, then what may have changed since is copied again under PGlite's statement lock
 * (#server/db/data-dir-copy). Requests that need the database wait for that last step only (the
 * pause is measured and shown); compressing, listing and checksumming the files, writing
 * the backup file and sending it to the bucket happen afterwards, off the database and with the
 * event loop free (zlib and file I/O run on libuv's thread pool).
 */
const gzip = promisify(zlib.gzip);
const NAME = /^backup-\d{8}-\d{6}-\d{3}\.tar$/;

export function backupDir(config: AppConfig): string {
  return config.BACKUP_DIR ? path.resolve(projectRoot(), config.BACKUP_DIR) : path.join(config.dataDir, 'backups');
}

const nameFor = (d: Date) => {
  const iso = d.toISOString(); // 2026-11-27T01:02:03.456Z
  return `backup-${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}.tar`;
};

interface Sidecar {
  name: string;
  createdAt: string;
  sizeBytes: number;
  files: number;
  pauseMs: number;
  durationMs: number;
  inBucket: boolean;
  trigger: 'staff' | 'schedule';
}

let running: Promise<BackupInfo> | null = null;

/** Is a backup being written right now (one at a time per process)? */
export const backupRunning = () => running !== null;

/** Lets a backup in progress finish before the database closes (shutdown). */
export async function backupSettled(): Promise<void> {
  await running?.catch(() => undefined);
}

export async function createBackup(ctx: AppContext, trigger: 'staff' | 'schedule'): Promise<BackupInfo> {
  if (ctx.database.kind !== 'pglite') {
    throw conflict('Online backups here are for the embedded database. On PostgreSQL use pg_dump or your provider\'s backups (docs/operations.md, "Backups").');
  }
  if (running) throw conflict('A backup is being written. Try again when it has finished.');
  running = writeBackup(ctx, trigger);
  try {
    return await running;
  } finally {
    running = null;
  }
}

async function bucketFor(ctx: AppContext): Promise<S3Storage | null> {
  const c = ctx.config;
  if (ctx.storage.kind !== 's3' || !c.S3_ENDPOINT || !c.S3_BUCKET) return null;
  // its own client: a backup is larger than an upload, it gets minutes, not the uploads' 10 s
  return S3Storage.create({ endpoint: c.S3_ENDPOINT, bucket: c.S3_BUCKET, region: c.S3_REGION, accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY, timeoutMs: 600_000 });
}

/**
 * Copies the embedded database's files to `to` while no statement runs (on its own thread, or
 * under PGlite's statement lock in this thread). Answers how long statements were held (ms), or
 * false when there is nothing to copy (a database in memory).
 */
async function copyDataDir(ctx: AppContext, to: string): Promise<number | false> {
  const raw = ctx.database.raw as { copyDataDir?: (to: string) => Promise<number | false>; dataDir?: string; _runExclusiveQuery?: <T>(fn: () => Promise<T>) => Promise<T> };
  if (typeof raw.copyDataDir === 'function') return raw.copyDataDir(to);
  const from = raw.dataDir;
  if (!from || from.startsWith('memory://') || !raw._runExclusiveQuery || !fs.existsSync(path.join(from, 'PG_VERSION'))) return false;
  // copied while statements run, then only what may have changed under the lock (decision 38-06)
  const state = await copyLoose(from, to);
  await copyLoose(from, to, state);
  return raw._runExclusiveQuery(async () => {
    const t0 = performance.now();
    copyChanged(from, to, state);
    return performance.now() - t0;
  });
}

async function writeBackup(ctx: AppContext, trigger: 'staff' | 'schedule'): Promise<BackupInfo> {
  const started = performance.now();
  const createdAt = new Date();
  const dir = backupDir(ctx.config);
  await fsp.mkdir(dir, { recursive: true });

  // the one exclusive step: every statement waits for it, nothing else does
  const mark = () => Math.round(performance.now() - started);
  const snapshot = path.join(dir, `.snapshot-${process.pid}-${createdAt.getTime()}`);
  const databaseGzFile = `${snapshot}.tar.gz`;
  let databaseGz: Buffer | string;
  let pauseMs: number;
  const phases: Record<string, number> = {};
  try {
    const held = await copyDataDir(ctx, snapshot);
    pauseMs = held === false ? 0 : Math.round(held);
    phases.copied = mark();
    if (held !== false) {
      await tarDataDir(snapshot, databaseGzFile);
      databaseGz = databaseGzFile;
    } else {
      // in memory (tests) or an engine without the copy: PGlite's own dump, taken the same way
      const pglite = ctx.database.raw as { dumpDataDir(compression: 'none' | 'gzip'): Promise<Blob> };
      const p0 = performance.now();
      const dump = await pglite.dumpDataDir('none');
      pauseMs = Math.round(performance.now() - p0); // an upper bound: it includes waiting for the lock
      databaseGz = await gzip(Buffer.from(await dump.arrayBuffer()), { level: 1, chunkSize: 4 * 1024 * 1024 });
    }
    phases.compressed = mark();
  } catch (e) {
    await fsp.rm(databaseGzFile, { force: true });
    throw e;
  } finally {
    await fsp.rm(snapshot, { recursive: true, force: true });
  }
  const onDisk = ctx.storage.kind === 'disk';
  const filesRoot = path.join(ctx.config.dataDir, 'files');
  const files = onDisk ? await fileManifest(filesRoot) : [];
  phases.listed = mark();
  const databaseBytes = typeof databaseGz === 'string' ? (await fsp.stat(databaseGz)).size : databaseGz.length;
  const manifest: BackupManifest = { format: BACKUP_FORMAT, createdAt: createdAt.toISOString(), database: 'pglite', databaseBytes, filesIncluded: onDisk, files };
  const name = nameFor(createdAt);
  const file = path.join(dir, name);
  let sizeBytes: number;
  try {
    sizeBytes = await writeBackupFile(file, manifest, databaseGz, onDisk ? filesRoot : null);
  } finally {
    await fsp.rm(databaseGzFile, { force: true });
  }
  phases.written = mark();

  let inBucket = false;
  const bucket = await bucketFor(ctx);
  if (bucket) {
    try {
      await bucket.put(`backups/${name}`, await fsp.readFile(file), 'application/x-tar');
      inBucket = true;
    } catch (err) {
      ctx.log.error({ err, backup: name }, 'backup: could not send it to the bucket (kept on disk)');
    } finally {
      bucket.close?.();
    }
  }
  const sidecar: Sidecar = { name, createdAt: manifest.createdAt, sizeBytes, files: files.length, pauseMs, durationMs: Math.round(performance.now() - started), inBucket, trigger };
  await fsp.writeFile(path.join(dir, `${name}.json`), JSON.stringify(sidecar));
  ctx.log.info({ backup: name, sizeBytes, pauseMs, durationMs: sidecar.durationMs, phases, files: files.length, inBucket, trigger }, 'backup written');
  await prune(ctx, dir);
  return toInfo(sidecar);
}

const toInfo = (s: Sidecar): BackupInfo => ({
  name: s.name,
  createdAt: s.createdAt,
  sizeBytes: s.sizeBytes,
  files: s.files,
  pauseMs: s.pauseMs,
  durationMs: s.durationMs,
  inBucket: s.inBucket,
  trigger: s.trigger,
});

/** The backups in BACKUP_DIR, newest first. */
export async function listBackups(ctx: AppContext): Promise<BackupInfo[]> {
  const dir = backupDir(ctx.config);
  let names: string[];
  try {
    names = (await fsp.readdir(dir)).filter((n) => NAME.test(n));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: BackupInfo[] = [];
  for (const name of names) {
    try {
      out.push(toInfo(JSON.parse(await fsp.readFile(path.join(dir, `${name}.json`), 'utf8')) as Sidecar));
    } catch {
      // a backup copied here by hand, without its sidecar: what the file itself says
      const st = await fsp.stat(path.join(dir, name)).catch(() => null);
      if (st) out.push({ name, createdAt: st.mtime.toISOString(), sizeBytes: st.size, files: null, pauseMs: null, durationMs: null, inBucket: false, trigger: null });
    }
  }
  return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Keeps the newest BACKUP_KEEP backups (on disk and in the bucket). */
async function prune(ctx: AppContext, dir: string): Promise<void> {
  const all = await listBackups(ctx);
  const old = all.slice(ctx.config.BACKUP_KEEP);
  if (!old.length) return;
  const bucket = old.some((b) => b.inBucket) ? await bucketFor(ctx) : null;
  for (const b of old) {
    await fsp.rm(path.join(dir, b.name), { force: true });
    await fsp.rm(path.join(dir, `${b.name}.json`), { force: true });
    if (b.inBucket && bucket) await bucket.delete(`backups/${b.name}`).catch((err: unknown) => ctx.log.warn({ err, backup: b.name }, 'backup: could not delete an old copy in the bucket'));
  }
  bucket?.close?.();
}

/** BACKUP_EVERY_HOURS: a backup every so often while the server runs (embedded database only). */
export function startBackupSchedule(ctx: AppContext): void {
  const hours = ctx.config.BACKUP_EVERY_HOURS;
  if (!hours || ctx.database.kind !== 'pglite') return;
  const timer = setInterval(() => {
    if (running) return;
    createBackup(ctx, 'schedule').catch((err: unknown) => ctx.log.error({ err }, 'scheduled backup failed'));
  }, hours * 3600_000);
  timer.unref();
  ctx.onClose.push(() => clearInterval(timer));
}
