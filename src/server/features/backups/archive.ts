import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { FileEntry } from './copy-files';

/**
 * A backup file (decision 38-02): a plain tar (readable with `tar tf`) holding
 *
 * - `manifest.json`: format, time, the database's size, the list of files with size and SHA-256;
 * - `pglite.tar.gz`: the embedded database's data dir as PGlite's own dumpDataDir writes it;
 * - `files/<key>`: the stored files (when they are on disk; a bucket keeps its own).
 */
export const BACKUP_FORMAT = 'metal-cards-backup/1';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  database: 'pglite';
  /** bytes of pglite.tar.gz */
  databaseBytes: number;
  /** where the files are: inside this backup, or left in the bucket (listed only) */
  filesIncluded: boolean;
  files: FileEntry[];
}

/**
 * A data dir's files as a gzipped tar in the layout PGlite's dumpDataDir writes and its loadDataDir
 * reads (names relative to the data dir, directories included), streamed from disk to `out`.
 */
export async function tarDataDir(dir: string, out: string): Promise<void> {
  const pack = tar.pack();
  const written = pipeline(pack, zlib.createGzip({ level: 1 }), fs.createWriteStream(out));
  const add = (header: Partial<tar.Header> & { name: string }, data?: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const cb = (err?: Error | null) => (err ? reject(err) : resolve());
      if (data) pack.entry(header, data, cb);
      else pack.entry(header, cb);
    });
  const walk = async (rel: string) => {
    for (const d of await fsp.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${d.name}` : d.name;
      const full = path.join(dir, name);
      const st = await fsp.stat(full);
      if (d.isDirectory()) {
        await add({ name, type: 'directory', mode: st.mode & 0o7777, mtime: st.mtime });
        await walk(name);
      } else if (d.isFile()) {
        await add({ name, type: 'file', mode: st.mode & 0o7777, mtime: st.mtime }, await fsp.readFile(full));
      }
    }
  };
  try {
    await walk('');
    pack.finalize();
    await written;
  } catch (e) {
    pack.destroy();
    throw e;
  }
}

/** Writes the backup to `file` (through `file.partial`, renamed at the end: a listed backup is whole). */
export async function writeBackupFile(file: string, manifest: BackupManifest, databaseGz: Buffer | string, filesRoot: string | null): Promise<number> {
  const partial = `${file}.partial`;
  const pack = tar.pack();
  const written = pipeline(pack, fs.createWriteStream(partial));
  const add = (name: string, data: Buffer) =>
    new Promise<void>((resolve, reject) => {
      pack.entry({ name, size: data.length, mtime: new Date(manifest.createdAt) }, data, (err) => (err ? reject(err) : resolve()));
    });
  try {
    await add('manifest.json', Buffer.from(JSON.stringify(manifest, null, 1)));
    if (typeof databaseGz === 'string') {
      const size = (await fsp.stat(databaseGz)).size;
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name: 'pglite.tar.gz', size, mtime: new Date(manifest.createdAt) }, (err) => (err ? reject(err) : resolve()));
        fs.createReadStream(databaseGz).on('error', reject).pipe(entry);
      });
    } else await add('pglite.tar.gz', databaseGz);
    if (filesRoot && manifest.filesIncluded) {
      for (const f of manifest.files) {
        const data = await fsp.readFile(path.join(filesRoot, ...f.key.split('/'))).catch(() => null);
        // a file deleted since the listing stays listed; the restore reports it
        if (data) await add(`files/${f.key}`, data);
      }
    }
    pack.finalize();
    await written;
  } catch (e) {
    pack.destroy();
    await fsp.rm(partial, { force: true });
    throw e;
  }
  await fsp.rename(partial, file);
  return (await fsp.stat(file)).size;
}

export interface ReadBackup {
  manifest: BackupManifest;
  databaseGz: Buffer;
  /** called for each stored file in the backup */
}

/** Reads a backup file: the manifest and database in memory, each stored file handed to `onFile`. */
export async function readBackupFile(file: string, onFile: (key: string, data: Buffer) => Promise<void>): Promise<ReadBackup> {
  const extract = tar.extract();
  let manifest: BackupManifest | undefined;
  let databaseGz: Buffer | undefined;
  const done = pipeline(fs.createReadStream(file), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const c of entry) chunks.push(c as Buffer);
    const data = Buffer.concat(chunks);
    const name = entry.header.name;
    if (name === 'manifest.json') manifest = JSON.parse(data.toString('utf8')) as BackupManifest;
    else if (name === 'pglite.tar.gz') databaseGz = data;
    else if (name.startsWith('files/')) await onFile(name.slice('files/'.length), data);
  }
  await done;
  if (!manifest || manifest.format !== BACKUP_FORMAT) throw new Error(`${file} is not a backup of this product (no ${BACKUP_FORMAT} manifest)`);
  if (!databaseGz) throw new Error(`${file} holds no database (pglite.tar.gz missing)`);
  return { manifest, databaseGz };
}
