import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { files } from '#server/db/schema/index';
import { badRequest } from '#server/http/http-errors';
import { sha256Hex } from './crypto';
import { keyFromFileUrl } from './files';

/** The answer for a `/files/...` URL the caller does not own (issue 19.3): the same whether or not the file exists. */
export const NOT_YOUR_FILE = 'This file was not uploaded by you. Please upload it again.';

/** Who is asking: a signed-in account, and/or the token a signed-out upload answered with. */
export interface FileCaller {
  userId: string | null;
  uploadToken?: string | null;
}

/** Hash stored for a signed-out upload's own token (the token itself is never stored). */
export function uploadTokenHash(token: string): string {
  return sha256Hex(`upload-token:${token}`);
}

/**
 * Every `/files/...` URL in `fields` must be a stored file the caller owns: uploaded by the signed-in
 * account, or uploaded signed out with the token the caller presents. Anything else answers 400 with
 * the field named (nothing is read or rendered). Empty fields are skipped. `kind` narrows the files
 * (e.g. only `artwork`). Answers the keys that are owned through the token only (not yet by an account).
 */
export async function assertFilesOwned(
  db: Db | Tx,
  caller: FileCaller,
  fields: Record<string, string | null | undefined>,
  opts: { kind?: string; message?: string } = {},
): Promise<{ tokenOwnedKeys: string[] }> {
  const message = opts.message ?? NOT_YOUR_FILE;
  const wanted: Array<[string, string]> = [];
  const errors: Record<string, string> = {};
  for (const [field, url] of Object.entries(fields)) {
    if (!url) continue;
    const key = keyFromFileUrl(url);
    if (!key) errors[field] = message;
    else wanted.push([field, key]);
  }
  const tokenOwnedKeys: string[] = [];
  if (wanted.length) {
    const rows = await db
      .select({ key: files.key, userId: files.userId, ownerTokenHash: files.ownerTokenHash })
      .from(files)
      .where(and(inArray(files.key, wanted.map(([, k]) => k)), opts.kind ? eq(files.kind, opts.kind) : undefined));
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const tokenHash = caller.uploadToken ? uploadTokenHash(caller.uploadToken) : null;
    for (const [field, key] of wanted) {
      const row = byKey.get(key);
      const byAccount = !!row && !!caller.userId && row.userId === caller.userId;
      const byToken = !!row && row.userId === null && !!tokenHash && row.ownerTokenHash === tokenHash;
      if (!byAccount && !byToken) errors[field] = message;
      else if (!byAccount) tokenOwnedKeys.push(key);
    }
  }
  if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0], errors);
  return { tokenOwnedKeys };
}

/** A signed-in caller who used a file through its upload token now owns it (account deletion then removes it). */
export async function claimTokenOwnedFiles(db: Db | Tx, userId: string, keys: string[]) {
  if (!keys.length) return;
  await db.update(files).set({ userId }).where(and(inArray(files.key, keys), isNull(files.userId)));
}

/** Which of these keys are files the signed-in user uploaded (the profile's image fields). */
export async function keysOwnedByUser(db: Db | Tx, userId: string, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.select({ key: files.key }).from(files).where(and(inArray(files.key, keys), eq(files.userId, userId)));
  return new Set(rows.map((r) => r.key));
}
