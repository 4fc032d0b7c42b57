import type { Tx } from '#server/db/client';
import { revokeTokens } from '#server/features/developer/public-api';
import { disableEndpointsOfUser } from '#server/features/webhooks/public-api';
import { WEBHOOK_MESSAGES } from '#shared/schemas/webhooks';

/** Why the account's lasting access ended (recorded on each token and endpoint). */
export type AccessEndReason = 'reset' | 'change';

const TOKEN_REASON: Record<AccessEndReason, string> = { reset: 'password reset', change: 'password change' };
const ENDPOINT_REASON: Record<AccessEndReason, string> = { reset: WEBHOOK_MESSAGES.disabledByReset, change: WEBHOOK_MESSAGES.disabledByChange };

/**
 * Ends the lasting access the account created (issue 33, decision 33-01), in the caller's
 * transaction: every live API token it created (personal and team ones) is revoked (developer's
 * tokens), and every webhook endpoint it created (its own and its team's) is disabled with the
 * reason recorded (webhooks). The owner enables endpoints again after signing in; revoked tokens
 * never come back.
 */
export async function endAccountAccess(tx: Tx, userId: string, why: AccessEndReason): Promise<{ tokens: number; endpoints: number }> {
  const tokens = await revokeTokens(tx, { userId }, TOKEN_REASON[why]);
  const endpoints = await disableEndpointsOfUser(tx, userId, ENDPOINT_REASON[why]);
  return { tokens, endpoints };
}
