import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML 2.0 identity provider stand-in for tests (issue 39 item 3, decision 39-04): a throwaway
 * RSA key and self-signed certificate made with the openssl CLI, its metadata, and signed
 * Responses and Assertions made with `xml-crypto` (the signer every Node SAML library verifies
 * with). Every field a service provider must check can be set wrong on purpose, and the signed
 * XML can be changed afterwards (tampering, signature wrapping).
 */

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

export interface KeyPair {
  keyPem: string;
  certPem: string;
}

/** A 2048-bit RSA key and a self-signed certificate valid for two days. */
export function makeSigningKey(cn = 'saml-idp.test'): KeyPair {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-saml-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', `/CN=${cn}`], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return { keyPem: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), certPem: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const certBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const newId = () => `_${randomBytes(16).toString('hex')}`;

export interface ResponseOptions {
  /** our SP entity id (the Audience) */
  audience: string;
  /** our ACS (SubjectConfirmationData Recipient and the Response's Destination) */
  acsUrl: string;
  /** the AuthnRequest ID this answers (left out: an IdP-initiated response) */
  inResponseTo?: string;
  nameId: string;
  nameIdFormat?: string;
  /** attribute name → value(s) */
  attributes?: Record<string, string | string[]>;
  /** overrides for the wrong-on-purpose cases */
  issuer?: string;
  recipient?: string;
  destination?: string;
  notBefore?: number;
  notOnOrAfter?: number;
  assertionId?: string;
  /** what is signed: the assertion (default), the whole response, both, or nothing */
  sign?: 'assertion' | 'response' | 'both' | 'none';
  /** sign with this key instead of the IdP's own */
  signer?: KeyPair;
}

export interface SamlIdp {
  entityId: string;
  ssoUrl: string;
  key: KeyPair;
  /** the IdP's metadata (what the team owner pastes or links) */
  metadataXml(): string;
  /** a signed Response, as XML */
  responseXml(o: ResponseOptions): string;
  /** the same, base64 as the browser posts it in SAMLResponse */
  response(o: ResponseOptions): string;
}

function assertionXml(idp: { entityId: string }, o: ResponseOptions, id: string, now: number): string {
  const issuer = o.issuer ?? idp.entityId;
  const notBefore = o.notBefore ?? now - 60_000;
  const notOnOrAfter = o.notOnOrAfter ?? now + 5 * 60_000;
  const irt = o.inResponseTo ? ` InResponseTo="${esc(o.inResponseTo)}"` : '';
  const attrs = Object.entries(o.attributes ?? {})
    .map(([name, v]) => {
      const values = (Array.isArray(v) ? v : [v]).map((x) => `<saml:AttributeValue>${esc(x)}</saml:AttributeValue>`).join('');
      return `<saml:Attribute Name="${esc(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values}</saml:Attribute>`;
    })
    .join('');
  return (
    `<saml:Assertion xmlns:saml="${SAML}" ID="${id}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${esc(issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${esc(o.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress')}">${esc(o.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${irt} NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${esc(o.recipient ?? o.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`
  );
}

/** Signs the element `local` (Assertion or Response) in place, the signature right after its Issuer. */
export function signElement(xml: string, local: 'Assertion' | 'Response', key: KeyPair): string {
  const sig = new SignedXml({ privateKey: key.keyPem, publicCert: key.certPem, signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', canonicalizationAlgorithm: EXC_C14N });
  sig.addReference({ xpath: `//*[local-name(.)='${local}']`, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256' });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: `//*[local-name(.)='${local}']/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

export function createSamlIdp(opts: { entityId?: string; ssoUrl?: string; key?: KeyPair } = {}): SamlIdp {
  const entityId = opts.entityId ?? 'https://idp.example.test/saml';
  const ssoUrl = opts.ssoUrl ?? 'https://idp.example.test/sso';
  const key = opts.key ?? makeSigningKey();
  const idp: SamlIdp = {
    entityId,
    ssoUrl,
    key,
    metadataXml: () =>
      `<?xml version="1.0" encoding="UTF-8"?>` +
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(entityId)}">` +
      `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="${SAMLP}">` +
      `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(key.certPem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
      `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(ssoUrl)}"/>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${esc(ssoUrl)}"/>` +
      `</md:IDPSSODescriptor></md:EntityDescriptor>`,
    responseXml(o) {
      const now = Date.now();
      const signer = o.signer ?? key;
      const sign = o.sign ?? 'assertion';
      let assertion = assertionXml(idp, o, o.assertionId ?? newId(), now);
      if (sign === 'assertion' || sign === 'both') assertion = signElement(assertion, 'Assertion', signer);
      const irt = o.inResponseTo ? ` InResponseTo="${esc(o.inResponseTo)}"` : '';
      let response =
        `<samlp:Response xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="${newId()}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(o.destination ?? o.acsUrl)}"${irt}>` +
        `<saml:Issuer>${esc(o.issuer ?? entityId)}</saml:Issuer>` +
        `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
        assertion +
        `</samlp:Response>`;
      if (sign === 'response' || sign === 'both') response = signElement(response, 'Response', signer);
      return response;
    },
    response: (o) => Buffer.from(idp.responseXml(o), 'utf8').toString('base64'),
  };
  return idp;
}

/**
 * Signature wrapping (XSW): the signed assertion for `victim` stays, untouched, inside an
 * `<saml:Advice>` of a new, unsigned assertion naming `evilNameId`, which takes its place.
 */
export function wrapAssertion(signedResponseXml: string, evilNameId: string): string {
  const start = signedResponseXml.indexOf('<saml:Assertion');
  const end = signedResponseXml.indexOf('</saml:Assertion>') + '</saml:Assertion>'.length;
  const original = signedResponseXml.slice(start, end);
  const evil = original
    .replace(/ID="[^"]+"/, `ID="${newId()}"`)
    .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
    .replace(/(<saml:NameID[^>]*>)[^<]*/, `$1${esc(evilNameId)}`)
    .replace('</saml:Assertion>', `<saml:Advice>${original}</saml:Advice></saml:Assertion>`);
  return signedResponseXml.slice(0, start) + evil + signedResponseXml.slice(end);
}

/** The AuthnRequest a redirect binding URL carries (SAMLRequest, deflated and base64), as XML. */
export function authnRequestOf(location: string): { xml: string; id: string; relayState: string | null } {
  const u = new URL(location);
  const xml = inflateRawSync(Buffer.from(u.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
  return { xml, id, relayState: u.searchParams.get('RelayState') };
}

export const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

export interface SamlIdpServer {
  idp: SamlIdp;
  close(): Promise<void>;
}

/**
 * The stand-in as a tiny HTTP identity provider on 127.0.0.1 (browser tests): its sign-on address
 * reads the AuthnRequest, signs the person `nameId()` names in at once, and answers the page an
 * IdP answers: a form that posts the signed response to the request's ACS by itself.
 */
export async function startSamlIdpServer(opts: { nameId: () => string; attributes?: Record<string, string | string[]> }): Promise<SamlIdpServer> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/sso' || !url.searchParams.get('SAMLRequest')) return void res.writeHead(404).end();
    const request = authnRequestOf(url.href);
    const acsUrl = /AssertionConsumerServiceURL="([^"]+)"/.exec(request.xml)?.[1] ?? '';
    const audience = /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(request.xml)?.[1] ?? '';
    const response = state.idp!.response({ audience, acsUrl, inResponseTo: request.id, nameId: opts.nameId(), attributes: opts.attributes });
    const relay = request.relayState ? `<input type="hidden" name="RelayState" value="${esc(request.relayState)}">` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Test IdP</title></head><body><form method="post" action="${esc(acsUrl)}">` +
        `<input type="hidden" name="SAMLResponse" value="${esc(response)}">${relay}<button type="submit">Continue</button></form>` +
        `<script>document.forms[0].submit()</script></body></html>`,
    );
  });
  const state: { idp?: SamlIdp } = {};
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  state.idp = createSamlIdp({ entityId: `http://127.0.0.1:${port}/metadata`, ssoUrl: `http://127.0.0.1:${port}/sso` });
  return { idp: state.idp, close: () => new Promise((r) => server.close(() => r())) };
}
