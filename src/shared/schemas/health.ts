import { z } from 'zod';

/** GET /api/health: 200 when the database answers, 503 (Retry-After: 5) when it does not. */
export const HealthGetResponse = {
  200: z.strictObject({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }),
  503: z.strictObject({ status: z.literal('unavailable'), message: z.string() }),
};
