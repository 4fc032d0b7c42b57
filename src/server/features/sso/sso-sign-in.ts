import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { users } from '#server/db/schema/auth';
import { startSession } from '#server/plugins/session';
import { clientAddress } from '#server/infra/rate-limit';
import { endSession, findUserByEmail, isListedAdmin, markEmailProven, registerUser } from '#server/features/auth/public-api';
import { addDirectoryMember, teamRoleOf } from '#server/features/team/public-api';
import { setDirectoryFields, type DirectoryProfileFields } from '#server/features/profile/public-api';
import { teamScimConfig } from '#server/features/scim/public-api';
import { recordIdentityEvent } from '#server/features/audit/public-api';
import { ProfileSaveBody } from '#shared/schemas/profile';
import { SCIM_PROFILE_FIELDS, type ScimProfileField } from '#shared/schemas/scim';
import type { SsoErrorCode } from '#shared/sso-errors';
import { connectionRow } from './sso-connection.service';
import { emailDomain, teamHasVerifiedDomain } from './sso-domains.service';

/**
 * The end of every single sign-on, OIDC or SAML (decision 39-03): the identity provider has
 * vouched for a person; this finds or makes their account, puts them in the team, fills their
 * profile by the team's field rules, starts the same session a password sign-in does, writes the
 * audit log, and sends the browser on. One function for both kinds, so the rules are kept once.
 */

/** What an identity provider said about the person. */
export interface SsoIdentity {
  kind: 'oidc' | 'saml';
  /** OIDC `sub` or SAML NameID */
  subject: string;
  /** the address the provider asserts */
  email: string;
  /** OIDC `email_verified`; SAML: left out (the assertion itself vouches) */
  emailVerified?: boolean;
  name?: string | null;
  givenName?: string | null;
  familyName?: string | null;
  jobTitle?: string | null;
  phone?: string | null;
  company?: string | null;
  address?: string | null;
}

const FALLBACK = '/profile';

/** A path on this site to go to after signing in (anything else: the profile page). */
export function safeReturnTo(raw: string | null | undefined): string {
  if (!raw || raw.length > 500) return FALLBACK;
  // a same-site path only: no scheme, no `//host`, no backslash tricks, no control characters
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(raw)) return FALLBACK;
  if (raw.startsWith('/api/') || raw.startsWith('/login')) return FALLBACK;
  return raw;
}

const redirect = (reply: FastifyReply, to: string) => reply.header('cache-control', 'no-store').redirect(to, 303);

/** A refused single sign-on: the audit log says why, the browser goes back to the sign-in page with a short code. */
export async function ssoFailure(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  f: { teamId: string | null; kind: 'oidc' | 'saml'; reason: string; email?: string | null; code?: SsoErrorCode; userId?: string | null },
): Promise<FastifyReply> {
  await recordIdentityEvent(app.ctx, {
    kind: 'sso-sign-in-failed',
    outcome: 'failure',
    teamId: f.teamId,
    userId: f.userId ?? null,
    email: f.email ?? null,
    ip: clientAddress(req),
    detail: { method: f.kind, reason: f.reason.slice(0, 250) },
  });
  return redirect(reply, `/login?sso_error=${f.code ?? 'failed'}`);
}

function profileValues(id: SsoIdentity): Partial<Record<ScimProfileField, string>> {
  const raw: Record<ScimProfileField, string | null | undefined> = {
    fullName: id.name ?? ([id.givenName, id.familyName].filter(Boolean).join(' ') || null),
    jobTitle: id.jobTitle,
    email: id.email,
    phoneNumber: id.phone,
    address: id.address,
    companyName: id.company,
  };
  const out: Partial<Record<ScimProfileField, string>> = {};
  for (const f of SCIM_PROFILE_FIELDS) {
    const v = raw[f];
    if (!v) continue;
    // each value through the profile's own rule: one the profile would refuse is left out
    const r = ProfileSaveBody.shape[f].safeParse(v);
    if (r.success && typeof r.data === 'string') out[f] = r.data;
  }
  return out;
}

function withRule(values: Partial<Record<ScimProfileField, string>>, rules: Record<ScimProfileField, string>, allowed: string[]): DirectoryProfileFields {
  const out: DirectoryProfileFields = {};
  for (const f of SCIM_PROFILE_FIELDS) if (allowed.includes(rules[f]) && values[f] !== undefined) out[f] = values[f];
  return out;
}

async function freeUsername(app: FastifyInstance, email: string): Promise<string> {
  const base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 30) || 'member';
  for (let i = 0; i < 5; i++) {
    const candidate = i === 0 ? base : `${base}-${crypto.randomBytes(3).toString('hex')}`;
    const [taken] = await app.ctx.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${candidate.toLowerCase()}`).limit(1);
    if (!taken) return candidate;
  }
  return `member-${crypto.randomBytes(6).toString('hex')}`;
}

/**
 * Signs the person in after their identity provider vouched for them, and always answers a 303:
 * into the app (`returnTo`, a same-site path, else /profile), or to `/login?sso_error=<code>`.
 * Refused: an address outside the team's verified domains, an address the provider says is not
 * verified, a provider of another kind than the team's active one, a staff account or an address
 * in ADMIN_EMAILS (staff sign in with their password and second factor), an account in another
 * team, a full team.
 */
export async function finishSsoSignIn(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  input: { teamId: string; identity: SsoIdentity; returnTo?: string | null },
): Promise<FastifyReply> {
  const { ctx } = app;
  const { teamId, identity } = input;
  const email = identity.email.trim();
  const fail = (reason: string, code: SsoErrorCode, userId?: string | null) => ssoFailure(app, req, reply, { teamId, kind: identity.kind, reason, email, code, userId });

  const conn = await connectionRow(ctx, teamId);
  if (conn?.kind !== identity.kind) return fail(`the team's active provider is not ${identity.kind}`, 'failed');
  const domain = emailDomain(email);
  if (!domain || email.length > 254 || !(await teamHasVerifiedDomain(ctx, teamId, domain))) return fail(`${domain ?? 'no domain'} is not a verified domain of the team`, 'wrong-domain');
  if (identity.emailVerified === false) return fail('the provider says the address is not verified', 'not-verified');

  const { fieldRules } = await teamScimConfig(ctx, teamId);
  const values = profileValues(identity);
  let user = await findUserByEmail(ctx, email);
  let created = false;
  if (user?.role === 'admin' || isListedAdmin(ctx, email)) return fail('staff accounts do not sign in with single sign-on', 'staff-account', user?.id);
  if (!user) {
    try {
      await registerUser(
        ctx,
        {
          username: await freeUsername(app, email),
          email,
          // nobody knows this password: the person signs in through their company (or sets one with "Forgot password")
          password: crypto.randomBytes(32).toString('base64url'),
          firstName: (identity.givenName ?? '').slice(0, 80),
          lastName: (identity.familyName ?? '').slice(0, 80),
        },
        ctx.publicUrl({ protocol: req.protocol, host: req.host }),
        // the company's provider vouched for an address of its verified domain
        { emailProven: true },
      );
    } catch (e) {
      // a sign-in of the same person in another tab made the account a moment ago
      if ((e as { statusCode?: number }).statusCode !== 409) throw e;
    }
    user = await findUserByEmail(ctx, email);
    if (!user) return fail('the account could not be made', 'failed');
    created = true;
  }
  const membership = await teamRoleOf(ctx, user.id);
  if (membership && membership.teamId !== teamId) return fail('the account is a member of another team', 'other-team', user.id);
  if (!membership) {
    const createFields = withRule(values, fieldRules, ['create', 'always']);
    const joined = await addDirectoryMember(ctx, teamId, user.id, { fullName: createFields.fullName ?? email.split('@')[0]!, ...createFields });
    if (joined === 'full') return fail('the team is full', 'team-full', user.id);
    if (joined === 'other-team') return fail('the account is a member of another team', 'other-team', user.id);
  } else {
    await setDirectoryFields(ctx, user.id, withRule(values, fieldRules, ['always']));
  }
  if (!user.emailVerifiedAt) await markEmailProven(ctx.db, user.id);

  // a new session token at every sign-in; the browser's old session (if any) ends (no fixation)
  if (req.sessionId) await endSession(ctx, req.sessionId);
  await startSession(app, req, reply, user.id);
  await recordIdentityEvent(ctx, {
    kind: 'sso-sign-in',
    teamId,
    userId: user.id,
    email,
    ip: clientAddress(req),
    detail: { method: identity.kind, subject: identity.subject.slice(0, 200), accountCreated: created, joinedTeam: !membership },
  });
  return redirect(reply, safeReturnTo(input.returnTo));
}
