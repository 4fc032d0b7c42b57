import { defineEndpoint } from './endpoint';
import { BackupCreateBody, BackupCreateResponse, BackupListResponse } from '#shared/schemas/backups';

/** Staff: the backups of the embedded database (issue 38, decision 38-02). */
export const getAdminBackups = defineEndpoint({
  method: 'GET',
  path: '/api/admin/backups',
  access: 'admin',
  responses: { 200: BackupListResponse },
});

/** Staff: write a backup now, while the server keeps serving. 409 on PostgreSQL or while one is being written. */
export const postAdminBackups = defineEndpoint({
  method: 'POST',
  path: '/api/admin/backups',
  access: 'admin',
  body: BackupCreateBody,
  responses: { 201: BackupCreateResponse },
});
