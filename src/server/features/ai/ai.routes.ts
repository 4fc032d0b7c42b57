import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/ai';
import { AI_IMAGE_MAX_BYTES } from '#shared/catalogue';
import type { ZodTypeProvider } from '#server/http/validation';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { readUpload } from '#server/http/multipart';
import { badRequest, HttpError } from '#server/http/http-errors';
import { createAiProviders, generatePalette, removeImageBackground, reviewDesign, suggestDesign } from './ai.service';
import { planApply } from './apply';
import { currentDesignOf } from './current-design';

/**
 * The AI design assistant's calls. Signed-in users only (each call costs CPU, and money when a
 * model or PhotoRoom is configured), limited per user.
 */
export const AI_RATE_LIMITS = {
  /** suggestions and feedback together (may call a paid model) */
  text: { limit: 20, windowSeconds: 60 },
  palette: { limit: 60, windowSeconds: 60 },
  image: { limit: 10, windowSeconds: 60 },
  imageDaily: { limit: 100, windowSeconds: 86_400 },
};

const TOO_MANY = 'Too many requests to the design assistant. Please wait a minute and try again.';

export async function aiRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const providers = createAiProviders(app.ctx.config);
  const limit = (key: string, rule: { limit: number; windowSeconds: number }) =>
    enforceRateLimit(app.ctx.rateLimiter, key, rule.limit, rule.windowSeconds, TOO_MANY);

  route(r, api.postAiDesignSuggestions, async (req) => {
    await limit(`ai:text:${req.user!.id}`, AI_RATE_LIMITS.text);
    return suggestDesign(app.ctx, providers, req.body);
  });

  route(r, api.postAiDesignFeedback, async (req) => {
    await limit(`ai:text:${req.user!.id}`, AI_RATE_LIMITS.text);
    return reviewDesign(app.ctx, providers, req.body);
  });

  route(r, api.postAiApply, async (req) => {
    await limit(`ai:palette:${req.user!.id}`, AI_RATE_LIMITS.palette);
    return planApply(req.body);
  });

  route(r, api.getAiCurrentDesign, async (req) => currentDesignOf(app.ctx, req.user!.id));

  route(r, api.postAiColorPalette, async (req) => {
    await limit(`ai:palette:${req.user!.id}`, AI_RATE_LIMITS.palette);
    return generatePalette(req.body);
  });

  route(r, api.postPhotoroomRemoveBackground, async (req) => {
    const userId = req.user!.id;
    await limit(`ai:image:${userId}`, AI_RATE_LIMITS.image);
    await limit(`ai:image-day:${userId}`, AI_RATE_LIMITS.imageDaily);
    const upload = await readUpload(req, { field: 'image', maxBytes: AI_IMAGE_MAX_BYTES, tooLargeMessage: 'File too large' }).catch((e) => {
      // the spec's message for a request without the image
      // bounded: our own error message
      if (e instanceof HttpError && e.statusCode === 400 && /choose a file|Expected the file/.test(e.message)) throw badRequest('No image selected', { image: 'No image selected' });
      throw e;
    });
    return removeImageBackground(app.ctx, providers, userId, upload.data);
  });
}
