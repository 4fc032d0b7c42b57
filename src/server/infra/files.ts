import { eq, inArray } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { files } from '#server/db/schema/index';
import { shortId } from './crypto';

export interface SaveFileInput {
  userId: string | null;
  /** what the file is for, e.g. profile-image, logo, banner-logo, artwork, card, ai */
  kind: string;
  /** top folder of the key, e.g. uploads, artwork, cards, ai */
  prefix: string;
  data: Buffer;
  mimeType: string;
  ext: string;
  width?: number | null;
  height?: number | null;
  /** for a file stored signed out: hash of the token its uploader holds (issue 19) */
  ownerTokenHash?: string | null;
}

export interface SavedFile {
  key: string;
  /** path the file is served from: /files/{key} */
  url: string;
}

/** Public path of a stored file. */
export function fileUrl(key: string): string {
  return `/files/${key}`;
}

/** The storage key of a `/files/...` URL made by fileUrl (null for anything else). */
export function keyFromFileUrl(url: string | null | undefined): string | null {
  if (!url || !url.startsWith('/files/')) return null;
  return url.slice('/files/'.length);
}

/**
 * Stores bytes under a new server-made, unguessable key ({prefix}/{yyyy}/{24 random chars}.{ext})
 * and records the metadata row. A key is written once and never rewritten, so it can be cached
 * forever. When the row cannot be written, the bytes are removed again.
 */
export async function saveFile(ctx: Pick<AppContext, 'storage' | 'db'>, input: SaveFileInput, tx?: Tx | Db): Promise<SavedFile> {
  const prefix = input.prefix.replace(/[^a-z0-9-]/g, '') || 'files';
  const ext = input.ext.replace(/[^a-z0-9]/g, '').slice(0, 8) || 'bin';
  const key = `${prefix}/${new Date().getUTCFullYear()}/${shortId(24)}.${ext}`;
  await ctx.storage.put(key, input.data, input.mimeType);
  try {
    await (tx ?? ctx.db).insert(files).values({
      userId: input.userId,
      kind: input.kind,
      key,
      mimeType: input.mimeType,
      size: input.data.length,
      width: input.width ?? null,
      height: input.height ?? null,
      ownerTokenHash: input.ownerTokenHash ?? null,
    });
  } catch (e) {
    await ctx.storage.delete(key).catch(() => undefined);
    throw e;
  }
  return { key, url: fileUrl(key) };
}

/** Metadata row of a stored file, or null. */
export async function findFile(db: Db, key: string) {
  const [row] = await db.select().from(files).where(eq(files.key, key)).limit(1);
  return row ?? null;
}

/** Keys of every file the user owns (the account is being deleted). */
export async function fileKeysOfUser(db: Db | Tx, userId: string): Promise<string[]> {
  const rows = await db.select({ key: files.key }).from(files).where(eq(files.userId, userId));
  return rows.map((r) => r.key);
}

/** Removes the metadata rows of these files (their bytes are the caller's to delete after the commit). */
export async function deleteFileRows(db: Db | Tx, keys: string[]): Promise<void> {
  if (keys.length) await db.delete(files).where(inArray(files.key, keys));
}

/** Records the metadata row of bytes the caller already stored under a key of its own making. */
export async function recordStoredFile(db: Db | Tx, row: { userId: string | null; kind: string; key: string; mimeType: string; size: number }): Promise<void> {
  await db.insert(files).values(row);
}
