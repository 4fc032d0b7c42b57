import { z } from 'zod';

// ---- online backups of the embedded database (issue 38, decision 38-02) ----

/** One backup file in BACKUP_DIR (null: a file copied there by hand, without its details). */
export const BackupInfo = z.strictObject({
  name: z.string(),
  createdAt: z.string(),
  sizeBytes: z.number().int(),
  /** stored files inside the backup */
  files: z.number().int().nullable(),
  /** how long database statements waited for the copy */
  pauseMs: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** also sent to the bucket (S3 settings present) */
  inBucket: z.boolean(),
  trigger: z.enum(['staff', 'schedule']).nullable(),
});
export type BackupInfo = z.infer<typeof BackupInfo>;

export const BackupListResponse = z.strictObject({
  backups: z.array(BackupInfo),
  /** false on PostgreSQL: backups there are pg_dump's or the provider's */
  available: z.boolean(),
  /** where the files go (a folder on the server) */
  directory: z.string(),
  /** BACKUP_EVERY_HOURS (0: no schedule) and BACKUP_KEEP */
  everyHours: z.number(),
  keep: z.number().int(),
  running: z.boolean(),
});

export const BackupCreateBody = z.strictObject({}).nullish();
export const BackupCreateResponse = z.strictObject({ backup: BackupInfo });
