import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from '#server/infra/storage';

/** One stored file: its key (the path under DATA_DIR/files), size and SHA-256. */
export interface FileEntry {
  key: string;
  size: number;
  sha256: string;
}

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
};
export const contentTypeOf = (key: string) => TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
export const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/** Every file under `root` as storage keys (posix paths), sorted; half-written `.tmp` files left out. */
export async function listFileKeys(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const d of entries) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) await walk(p);
      else if (d.isFile() && !d.name.endsWith('.tmp')) out.push(path.relative(root, p).split(path.sep).join('/'));
    }
  };
  await walk(root);
  return out.sort();
}

/** Runs `fn` over `items`, `limit` at a time. */
export async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export interface FileCopyReport {
  files: number;
  bytes: number;
  /** already in the target with the same checksum (an earlier run) */
  skipped: number;
  uploaded: number;
  /** keys whose checksum in the target differs from the source after the copy */
  mismatches: string[];
}

/**
 * Copies every file under `root` to `target` and reads each one back to compare its SHA-256. A
 * file already there with the same checksum is not sent again, so a second run after an
 * interruption sends only what is missing.
 */
export async function copyFiles(root: string, target: Storage, opts: { concurrency?: number; onProgress?: (done: number, total: number) => void } = {}): Promise<FileCopyReport> {
  const keys = await listFileKeys(root);
  const report: FileCopyReport = { files: keys.length, bytes: 0, skipped: 0, uploaded: 0, mismatches: [] };
  let done = 0;
  opts.onProgress?.(0, keys.length);
  await eachLimited(keys, opts.concurrency ?? 16, async (key) => {
    const data = await fsp.readFile(path.join(root, ...key.split('/')));
    const want = sha256(data);
    report.bytes += data.length;
    const there = await target.get(key);
    if (there && sha256(there.data) === want) report.skipped++;
    else {
      await target.put(key, data, contentTypeOf(key));
      report.uploaded++;
      const back = await target.get(key);
      if (!back || sha256(back.data) !== want) report.mismatches.push(key);
    }
    opts.onProgress?.(++done, keys.length);
  });
  return report;
}

/** The manifest of the files under `root` (key, size, SHA-256). */
export async function fileManifest(root: string, concurrency = 8): Promise<FileEntry[]> {
  const keys = await listFileKeys(root);
  const out: FileEntry[] = new Array(keys.length);
  const index = new Map(keys.map((k, i) => [k, i]));
  await eachLimited(keys, concurrency, async (key) => {
    try {
      const data = await fsp.readFile(path.join(root, ...key.split('/')));
      out[index.get(key)!] = { key, size: data.length, sha256: sha256(data) };
    } catch (e) {
      // deleted between the listing and the read: not part of the backup
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  });
  return out.filter(Boolean);
}
