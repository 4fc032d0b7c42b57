import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import { guardXml, SAML_XML_LIMITS } from './saml-xml-guard';

/**
 * Identity provider metadata in, service provider metadata out (issue 39 item 3, decision 39-04).
 * The IdP's document is bounded (saml-xml-guard) before it is parsed; we keep its entity id, the
 * single sign-on address and the signing certificates, nothing else.
 */

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** PEM certificates the IdP signs with (at least one) */
  certificates: string[];
}

export type MetadataResult = { ok: true; idp: IdpMetadata } | { ok: false; message: string };

function children(parent: Element, ns: string, local: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === local) out.push(n as Element);
  }
  return out;
}

function toPem(base64: string): string | null {
  let b = '';
  for (const ch of base64) if (ch !== ' ' && ch !== '\n' && ch !== '\r' && ch !== '\t') b += ch;
  if (b.length === 0 || b.length > 20_000) return null;
  const lines: string[] = [];
  for (let i = 0; i < b.length; i += 64) lines.push(b.slice(i, i + 64));
  const pem = `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return null;
  }
}

/** An address the browser is sent to: https (http only for a local test IdP). */
function ssoUrlOk(raw: string): boolean {
  try {
    const u = new URL(raw);
    if (u.username || u.password) return false;
    if (u.protocol === 'https:') return true;
    return u.protocol === 'http:' && (u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]');
  } catch {
    return false;
  }
}

/** Reads an IdP's metadata (an EntityDescriptor, or an EntitiesDescriptor holding one IdP). */
export function parseIdpMetadata(xml: string): MetadataResult {
  const guard = guardXml(xml, SAML_XML_LIMITS.metadataChars);
  if (!guard.ok) return guard;
  let fault: string | null = null;
  const doc = new DOMParser({
    errorHandler: {
      warning: () => {},
      error: (m: string) => (fault ??= m),
      fatalError: (m: string) => (fault ??= m),
    },
  }).parseFromString(xml, 'text/xml');
  const root = doc?.documentElement;
  if (fault || !root) return { ok: false, message: 'This is not well-formed XML' };
  let entities: Element[];
  if (root.namespaceURI === MD && root.localName === 'EntityDescriptor') entities = [root];
  else if (root.namespaceURI === MD && root.localName === 'EntitiesDescriptor') entities = children(root, MD, 'EntityDescriptor');
  else return { ok: false, message: 'This is not SAML 2.0 metadata (no EntityDescriptor)' };
  const idps = entities.filter((e) => children(e, MD, 'IDPSSODescriptor').length > 0);
  if (idps.length === 0) return { ok: false, message: 'The metadata describes no identity provider (no IDPSSODescriptor)' };
  if (idps.length > 1) return { ok: false, message: 'The metadata describes several identity providers: use the one of your application' };
  const entity = idps[0];
  const entityId = (entity.getAttribute('entityID') ?? '').trim();
  if (!entityId || entityId.length > 1024) return { ok: false, message: 'The metadata has no entityID' };
  const desc = children(entity, MD, 'IDPSSODescriptor')[0];
  const services = children(desc, MD, 'SingleSignOnService');
  const redirect = services.find((s) => s.getAttribute('Binding') === REDIRECT);
  if (!redirect) return { ok: false, message: 'The metadata has no single sign-on address with the HTTP-Redirect binding' };
  const ssoUrl = (redirect.getAttribute('Location') ?? '').trim();
  if (!ssoUrlOk(ssoUrl) || ssoUrl.length > 2048) return { ok: false, message: 'The single sign-on address in the metadata is not an https:// address' };
  const certificates: string[] = [];
  for (const kd of children(desc, MD, 'KeyDescriptor')) {
    const use = kd.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const ki of children(kd, DS, 'KeyInfo'))
      for (const xd of children(ki, DS, 'X509Data'))
        for (const c of children(xd, DS, 'X509Certificate')) {
          const pem = toPem(c.textContent ?? '');
          if (!pem) return { ok: false, message: 'A signing certificate in the metadata cannot be read' };
          if (!certificates.includes(pem)) certificates.push(pem);
        }
  }
  if (certificates.length === 0) return { ok: false, message: 'The metadata has no signing certificate' };
  if (certificates.length > 5) return { ok: false, message: 'The metadata has more than five signing certificates' };
  return { ok: true, idp: { entityId, ssoUrl, certificates } };
}

/** Our service provider's addresses for one team. */
export interface SpEndpoints {
  entityId: string;
  acsUrl: string;
}

export function spEndpoints(baseUrl: string, teamId: string): SpEndpoints {
  return { entityId: `${baseUrl}/api/sso/saml/${teamId}/metadata`, acsUrl: `${baseUrl}/api/sso/saml/${teamId}/acs` };
}

/** Our SP metadata: entity id, the POST assertion consumer service, e-mail NameID, signed assertions wanted. */
export function spMetadataXml(sp: SpEndpoints): string {
  return generateServiceProviderMetadata({ issuer: sp.entityId, callbackUrl: sp.acsUrl, identifierFormat: NAMEID_EMAIL, wantAssertionsSigned: true });
}
