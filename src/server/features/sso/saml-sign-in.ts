import { randomBytes } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHttpsSite } from '#server/plugins/security';
import { finishSsoSignIn, ssoFailure } from './sso-sign-in';
import { samlConfigOf, type StoredSamlConfig } from './saml-connection';
import { samlClaims } from './saml-claims';
import { NAMEID_EMAIL, spEndpoints, type SpEndpoints } from './saml-metadata';
import { consumeSignIn, REQUEST_TTL_MS, requestCache } from './saml-store';
import { guardXml, SAML_XML_LIMITS } from './saml-xml-guard';

/**
 * SAML sign-in (issue 39 item 3, decision 39-04): the SP-initiated redirect to the identity
 * provider, and the assertion consumer service. `@node-saml/node-saml` checks the XML signature
 * (on the response or on the assertion; unsigned is refused; only what the signature covers is
 * read), the audience, the time window and that InResponseTo names a request we issued; we add
 * what it leaves out: the issuer, Recipient and Destination, the browser that started the sign-in
 * (a cookie naming the request), replay, and bounds on the XML before any parser sees it.
 */

/** small clock skew between us and the identity provider */
export const SAML_CLOCK_SKEW_MS = 60_000;
const COOKIE = 'saml_rq';
const SAML_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

function samlClient(app: FastifyInstance, teamId: string, cfg: StoredSamlConfig, sp: SpEndpoints, generateUniqueId?: () => string): SAML {
  return new SAML({
    idpCert: cfg.certificates,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    entryPoint: cfg.ssoUrl,
    audience: sp.entityId,
    idpIssuer: cfg.entityId,
    identifierFormat: NAMEID_EMAIL,
    // a valid signature on the response or on the assertion; with neither, node-saml refuses
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    maxAssertionAgeMs: REQUEST_TTL_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestCache(app.ctx, teamId),
    // Entra ID and Okta refuse a requested PasswordProtectedTransport when the person used a passkey or MFA
    disableRequestedAuthnContext: true,
    ...(generateUniqueId ? { generateUniqueId } : {}),
  });
}

function cookieOptions(app: FastifyInstance, teamId: string) {
  // the IdP's page posts to us cross-site: only a SameSite=None cookie travels with that POST, and
  // browsers take SameSite=None only when Secure (https). Plain http (development, tests): Lax.
  const https = isHttpsSite(app.ctx.config.PUBLIC_URL);
  return { path: `/api/sso/saml/${teamId}/`, httpOnly: true, secure: https, sameSite: https ? ('none' as const) : ('lax' as const) };
}

interface Pending {
  requestId: string;
  returnTo: string | null;
}

function pendingOf(req: FastifyRequest): Pending | null {
  const raw = req.cookies?.[COOKIE];
  if (!raw || raw.length > 1200) return null;
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Pending>;
    if (typeof v.requestId !== 'string' || v.requestId.length > 100) return null;
    return { requestId: v.requestId, returnTo: typeof v.returnTo === 'string' ? v.returnTo : null };
  } catch {
    return null;
  }
}

/** GET /api/sso/saml/:teamId/login: an AuthnRequest to the team's IdP, and a cookie naming it. */
export async function startSamlSignIn(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, teamId: string, returnTo: string | null): Promise<FastifyReply> {
  const cfg = await samlConfigOf(app.ctx, teamId);
  if (!cfg) return ssoFailure(app, req, reply, { teamId, kind: 'saml', reason: 'the team has no SAML connection' });
  const sp = spEndpoints(app.ctx.publicUrl(req), teamId);
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const url = await samlClient(app, teamId, cfg, sp, () => requestId).getAuthorizeUrlAsync('', undefined, {});
  const value = Buffer.from(JSON.stringify({ requestId, returnTo } satisfies Pending), 'utf8').toString('base64url');
  reply.setCookie(COOKIE, value, { ...cookieOptions(app, teamId), maxAge: REQUEST_TTL_MS / 1000 });
  return reply.redirect(url, 303);
}

/** The posted form's SAMLResponse (a form body arrives as text; a JSON body as an object). */
function samlResponseField(body: unknown): string | null {
  if (typeof body === 'string') return new URLSearchParams(body).get('SAMLResponse');
  if (body && typeof body === 'object') {
    const v = (body as Record<string, unknown>).SAMLResponse;
    return typeof v === 'string' ? v : null;
  }
  return null;
}

/** Base64 as the POST binding sends it (line breaks allowed), decoded; null when it is not base64. */
function decodeBase64(s: string): string | null {
  let clean = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 61;
    if (ok) clean += s[i];
    else if (c !== 10 && c !== 13 && c !== 32 && c !== 9) return null;
  }
  return clean.length === 0 ? null : Buffer.from(clean, 'base64').toString('utf8');
}

function parseXml(xml: string): Document | null {
  let fault = false;
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: () => (fault = true), fatalError: () => (fault = true) } }).parseFromString(xml, 'text/xml');
  return fault || !doc?.documentElement ? null : doc;
}

function child(parent: Element, local: string): Element | null {
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName === local) return n as Element;
  return null;
}

function childrenOf(parent: Element, local: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName === local) out.push(n as Element);
  return out;
}

/** What we check beyond node-saml, read from the verified assertion and from the response. */
function extraChecks(profile: Profile, cfg: StoredSamlConfig, sp: SpEndpoints, requestId: string): { ok: true; assertionId: string } | { ok: false; reason: string } {
  const assertion = parseXml(profile.getAssertionXml?.() ?? '')?.documentElement;
  const response = parseXml(profile.getSamlResponseXml?.() ?? '')?.documentElement;
  if (!assertion || assertion.localName !== 'Assertion' || assertion.namespaceURI !== SAML_NS || !response) return { ok: false, reason: 'the response has no readable assertion' };
  const issuer = child(assertion, 'Issuer')?.textContent?.trim() ?? '';
  if (issuer !== cfg.entityId) return { ok: false, reason: `the assertion's issuer is not the configured identity provider (${issuer.slice(0, 100)})` };
  const responseIssuer = child(response, 'Issuer')?.textContent?.trim();
  if (responseIssuer !== undefined && responseIssuer !== cfg.entityId) return { ok: false, reason: "the response's issuer is not the configured identity provider" };
  const status = child(child(response, 'Status') ?? response, 'StatusCode')?.getAttribute('Value');
  if (status !== 'urn:oasis:names:tc:SAML:2.0:status:Success') return { ok: false, reason: `the response's status is not Success (${(status ?? 'none').slice(0, 100)})` };
  const destination = response.getAttribute('Destination');
  if (destination && destination !== sp.acsUrl) return { ok: false, reason: 'the response is addressed to another service (Destination)' };
  if (response.getAttribute('InResponseTo') !== requestId) return { ok: false, reason: 'the response answers a sign-in this browser did not start (InResponseTo)' };
  const subject = child(assertion, 'Subject');
  const confirmations = subject ? childrenOf(subject, 'SubjectConfirmation').filter((c) => c.getAttribute('Method') === BEARER) : [];
  const data = confirmations.map((c) => child(c, 'SubjectConfirmationData')).filter((d): d is Element => d !== null);
  const now = Date.now();
  const ours = data.find((d) => {
    const notOnOrAfter = Date.parse(d.getAttribute('NotOnOrAfter') ?? '');
    const irt = d.getAttribute('InResponseTo');
    return d.getAttribute('Recipient') === sp.acsUrl && Number.isFinite(notOnOrAfter) && now - SAML_CLOCK_SKEW_MS < notOnOrAfter && (!irt || irt === requestId);
  });
  if (!ours) return { ok: false, reason: 'the assertion is meant for another recipient, or its subject confirmation expired (Recipient)' };
  const id = assertion.getAttribute('ID') ?? '';
  if (!id) return { ok: false, reason: 'the assertion has no ID' };
  return { ok: true, assertionId: id };
}

/** POST /api/sso/saml/:teamId/acs: the signed response, checked; then the sign-in (sso-core). */
export async function samlAssertionConsumer(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, teamId: string): Promise<FastifyReply> {
  const ctx = app.ctx;
  reply.clearCookie(COOKIE, cookieOptions(app, teamId));
  const fail = (reason: string, email?: string | null) => ssoFailure(app, req, reply, { teamId, kind: 'saml', reason, email: email ?? null });
  const field = samlResponseField(req.body);
  if (!field) return fail('no SAMLResponse in the form');
  if (field.length > Math.ceil((SAML_XML_LIMITS.responseChars * 4) / 3) + 4096) return fail('the SAML response is too large');
  const xml = decodeBase64(field);
  if (xml === null) return fail('the SAMLResponse is not base64');
  const guard = guardXml(xml, SAML_XML_LIMITS.responseChars);
  if (!guard.ok) return fail(`the SAML response was refused: ${guard.message}`);
  const cfg = await samlConfigOf(ctx, teamId);
  if (!cfg) return fail('the team has no SAML connection');
  const pending = pendingOf(req);
  if (!pending) return fail('no sign-in was started in this browser (the request cookie is missing)');
  const sp = spEndpoints(ctx.publicUrl(req), teamId);
  let profile: Profile | null;
  try {
    ({ profile } = await samlClient(app, teamId, cfg, sp).validatePostResponseAsync({ SAMLResponse: Buffer.from(xml, 'utf8').toString('base64') }));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return fail(`the SAML response was refused: ${message.slice(0, 200)}`);
  }
  if (!profile) return fail('the identity provider did not sign the person in');
  const extra = extraChecks(profile, cfg, sp, pending.requestId);
  if (!extra.ok) return fail(extra.reason);
  const claims = samlClaims(profile.nameID ?? null, profile.nameIDFormat ?? null, (profile.attributes as Record<string, unknown> | undefined) ?? {});
  if (!claims.email) return fail('the assertion names no e-mail address (NameID or an e-mail attribute)');
  const used = await consumeSignIn(ctx, teamId, pending.requestId, { issuer: cfg.entityId, id: extra.assertionId, expiresAt: new Date(Date.now() + REQUEST_TTL_MS + 2 * SAML_CLOCK_SKEW_MS) });
  if (used === 'assertion-replayed') return fail('this assertion was already used (replay)', claims.email);
  if (used === 'request-used') return fail('this sign-in request was already answered', claims.email);
  return finishSsoSignIn(app, req, reply, {
    teamId,
    returnTo: pending.returnTo,
    identity: {
      kind: 'saml',
      subject: profile.nameID,
      email: claims.email,
      name: claims.name,
      givenName: claims.givenName,
      familyName: claims.familyName,
      jobTitle: claims.jobTitle,
      phone: claims.phone,
      company: claims.company,
    },
  });
}
