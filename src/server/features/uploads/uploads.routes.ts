import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/uploads';
import type { ZodTypeProvider } from '#server/http/validation';
import { readUpload } from '#server/http/multipart';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { PROFILE_UPLOAD_LIMIT, PROFILE_UPLOADS, storeProfileImage, type ProfileUploadKind } from './uploads.service';
import { serveStoredFile } from './files.serve';

const UPLOAD_ENDPOINTS = { 'profile-image': api.postUploadProfileImage, logo: api.postUploadLogo, 'banner-logo': api.postUploadBannerLogo } satisfies Record<ProfileUploadKind, unknown>;

export async function uploadsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const kind of Object.keys(PROFILE_UPLOADS) as ProfileUploadKind[]) {
    const spec = PROFILE_UPLOADS[kind];
    route(r, UPLOAD_ENDPOINTS[kind], async (req, reply) => {
      await enforceRateLimit(app.ctx.rateLimiter, `upload:user:${req.user!.id}`, 60, 3600, 'Too many uploads. Please try again later.');
      const file = await readUpload(req, { field: spec.field, maxBytes: PROFILE_UPLOAD_LIMIT });
      const saved = await storeProfileImage(app.ctx, req.user!.id, kind, file.data);
      return reply.status(201).send({ url: saved.url });
    });
  }

  /** Every stored file, by its server-made key. */
  route(r, api.getPageFilesAny, async (req, reply) =>
    serveStoredFile(app.ctx, req, reply, req.params['*']));
}
