import type { FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context';
import { recordIdentityEvent } from '#server/features/audit/public-api';
import type { IdentityEventKind } from '#shared/schemas/audit';

/**
 * Sign-ins, refused codes, factor and passkey changes in the identity audit log (issue 39 item 5,
 * decision 39-02). Never throws: a sign-in does not fail because its log line was not written.
 */
export async function recordAuthEvent(
  ctx: AppContext,
  req: FastifyRequest,
  e: { kind: IdentityEventKind; userId?: string | null; email?: string | null; outcome?: 'success' | 'failure'; detail?: Record<string, string | number | boolean | null> },
): Promise<void> {
  await recordIdentityEvent(ctx, { ...e, req });
}
