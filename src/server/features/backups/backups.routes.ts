import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/backups';
import type { ZodTypeProvider } from '#server/http/validation';
import { backupDir, backupRunning, backupSettled, createBackup, listBackups, startBackupSchedule } from './backups.service';

/** Staff: online backups of the embedded database (issue 38, decision 38-02). */
export async function backupsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  route(r, api.getAdminBackups, async () => ({
    backups: await listBackups(ctx),
    available: ctx.database.kind === 'pglite',
    directory: backupDir(ctx.config),
    everyHours: ctx.config.BACKUP_EVERY_HOURS,
    keep: ctx.config.BACKUP_KEEP,
    running: backupRunning(),
  }));

  route(r, api.postAdminBackups, async (req, reply) => {
    const backup = await createBackup(ctx, 'staff');
    req.log.info({ backup: backup.name, by: req.user!.id }, 'backup requested by staff');
    return reply.status(201).send({ backup });
  });

  if (ctx.config.NODE_ENV !== 'test') startBackupSchedule(ctx);
  // a backup being written when the server stops is finished, not cut off with the database
  ctx.onClose.push(() => backupSettled());
}
