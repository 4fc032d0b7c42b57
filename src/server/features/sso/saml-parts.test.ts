import { describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { createSamlIdp, makeSigningKey } from '#tests/helpers/saml-idp';
import { guardXml, SAML_XML_LIMITS } from './saml-xml-guard';
import { parseIdpMetadata, spEndpoints, spMetadataXml } from './saml-metadata';
import { looksLikeEmail, samlClaims } from './saml-claims';

/** The pure parts of SAML sign-in (decision 39-04): the XML bounds, IdP metadata, SP metadata, claims. */

describe('SAML XML guard', () => {
  it('takes ordinary SAML and metadata', () => {
    const idp = createSamlIdp({ key: makeSigningKey() });
    expect(guardXml(idp.metadataXml(), SAML_XML_LIMITS.metadataChars)).toEqual({ ok: true });
    expect(guardXml(idp.responseXml({ audience: 'a', acsUrl: 'https://x/acs', nameId: 'a@b.co', inResponseTo: '_1' }), SAML_XML_LIMITS.responseChars)).toEqual({ ok: true });
    expect(guardXml('<a><!-- <b> --><![CDATA[<c>]]></a>', 100)).toEqual({ ok: true });
  });

  it.each([
    ['a DOCTYPE', '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>', /DOCTYPE or entity/],
    ['a lower-case doctype', '<!doctype r><r/>', /DOCTYPE or entity/],
    ['an ENTITY declaration', '<r><!ENTITY x SYSTEM "file:///etc/passwd"></r>', /DOCTYPE or entity/],
    ['another declaration', '<r><!ELEMENT r ANY></r>', /declaration that is not allowed/],
    ['an empty text', '', /empty/],
    ['no element', 'just text', /no element/],
    ['an unclosed comment', '<r><!-- </r>', /unclosed comment/],
    ['an unclosed tag', '<r><a', /unclosed tag/],
  ])('refuses %s', (_what, xml, message) => {
    const r = guardXml(xml, 10_000);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(message);
  });

  it('refuses too large, too deep and too many elements, in linear time', () => {
    expect(guardXml(`<r>${'x'.repeat(2000)}</r>`, 1000)).toMatchObject({ ok: false, message: expect.stringMatching(/too large/) });
    expect(guardXml(`${'<a>'.repeat(65)}${'</a>'.repeat(65)}`, 10_000)).toMatchObject({ ok: false, message: expect.stringMatching(/nested too deeply/) });
    expect(guardXml(`<r>${'<a/>'.repeat(20_001)}</r>`, 1_000_000)).toMatchObject({ ok: false, message: expect.stringMatching(/too many elements/) });
    // a hostile shape for a backtracking pattern: many openings and no close
    const t0 = performance.now();
    guardXml(`<r ${'<!'.repeat(100_000)}`, 1_000_000);
    guardXml(`${'<a '.repeat(200_000)}`, 1_000_000);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('IdP metadata', () => {
  const key = makeSigningKey();
  const idp = createSamlIdp({ key, entityId: 'https://sts.windows.net/tenant/', ssoUrl: 'https://login.microsoftonline.com/tenant/saml2' });

  it('reads entity id, the HTTP-Redirect sign-on address and the signing certificate', () => {
    const r = parseIdpMetadata(idp.metadataXml());
    expect(r).toMatchObject({ ok: true, idp: { entityId: 'https://sts.windows.net/tenant/', ssoUrl: 'https://login.microsoftonline.com/tenant/saml2' } });
    if (r.ok) {
      expect(r.idp.certificates).toHaveLength(1);
      expect(r.idp.certificates[0].replace(/\s+/g, '')).toBe(key.certPem.replace(/\s+/g, ''));
    }
  });

  it('reads one IdP out of an EntitiesDescriptor', () => {
    const inner = idp.metadataXml().replace('<?xml version="1.0" encoding="UTF-8"?>', '');
    const r = parseIdpMetadata(`<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${inner}</md:EntitiesDescriptor>`);
    expect(r.ok).toBe(true);
  });

  it.each([
    ['not XML', 'hello <', /not well-formed|unclosed tag/],
    ['XML that is not metadata', '<html><body/></html>', /not SAML 2.0 metadata/],
    ['an SP entity', '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"><md:SPSSODescriptor/></md:EntityDescriptor>', /no identity provider/],
    ['a DOCTYPE', '<!DOCTYPE x><x/>', /DOCTYPE/],
  ])('refuses %s with a message', (_what, xml, message) => {
    const r = parseIdpMetadata(xml);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(message);
  });

  it('refuses metadata without entity id, sign-on address, https or a readable certificate', () => {
    const md = idp.metadataXml();
    const cases: Array<[string, RegExp]> = [
      [md.replace(/entityID="[^"]+"/, ''), /no entityID/],
      [md.replace(/<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"[^>]*\/>/, ''), /HTTP-Redirect/],
      [md.split('https://login.microsoftonline.com/tenant/saml2').join('http://idp.example.com/saml2'), /not an https/],
      [md.split('https://login.microsoftonline.com/tenant/saml2').join('javascript:alert(1)'), /not an https/],
      [md.replace(/<ds:X509Certificate>[^<]+</, '<ds:X509Certificate>bm90IGEgY2VydA==<'), /cannot be read/],
      [md.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, ''), /no signing certificate/],
    ];
    for (const [xml, message] of cases) {
      const r = parseIdpMetadata(xml);
      expect(r.ok ? 'ok' : r.message).toMatch(message);
    }
  });
});

describe('SP metadata', () => {
  it('is well-formed XML naming our entity id, the POST ACS and the e-mail NameID format', () => {
    const sp = spEndpoints('https://cards.example.com', '6f1c2a4e-1111-4222-8333-944455556666');
    const xml = spMetadataXml(sp);
    let fault = false;
    const doc = new DOMParser({ errorHandler: { error: () => (fault = true), fatalError: () => (fault = true) } }).parseFromString(xml, 'text/xml');
    expect(fault).toBe(false);
    const root = doc.documentElement!;
    expect(root.localName).toBe('EntityDescriptor');
    expect(root.getAttribute('entityID')).toBe('https://cards.example.com/api/sso/saml/6f1c2a4e-1111-4222-8333-944455556666/metadata');
    const acs = doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:metadata', 'AssertionConsumerService')[0];
    expect(acs.getAttribute('Binding')).toBe('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(acs.getAttribute('Location')).toBe('https://cards.example.com/api/sso/saml/6f1c2a4e-1111-4222-8333-944455556666/acs');
    expect(doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:metadata', 'NameIDFormat')[0].textContent).toBe('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    expect(doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:metadata', 'SPSSODescriptor')[0].getAttribute('WantAssertionsSigned')).toBe('true');
  });
});

describe('SAML claims', () => {
  it('reads Entra ID claim URIs', () => {
    const ws = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';
    const c = samlClaims('00000000-aaaa-bbbb', 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', {
      [`${ws}emailaddress`]: 'Ada@Example.com',
      [`${ws}givenname`]: 'Ada',
      [`${ws}surname`]: 'Lovelace',
      'http://schemas.microsoft.com/identity/claims/displayname': 'Ada Lovelace',
      'http://schemas.microsoft.com/identity/claims/jobtitle': 'Engineer',
      'http://schemas.microsoft.com/identity/claims/department': 'R&D',
      [`${ws}mobilephone`]: '+1 212 555 0100',
    });
    expect(c).toEqual({ email: 'ada@example.com', name: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace', jobTitle: 'Engineer', department: 'R&D', phone: '+1 212 555 0100', company: null });
  });

  it('reads Okta attribute names and takes an e-mail NameID first', () => {
    const c = samlClaims('grace@example.com', 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', { email: 'other@example.com', firstName: 'Grace', lastName: 'Hopper', title: ['Admiral', 'x'], department: 'Navy', mobilePhone: '+1 555' });
    expect(c).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper', jobTitle: 'Admiral', department: 'Navy', phone: '+1 555' });
  });

  it('uses a NameID or UPN that is an address when no e-mail attribute is sent, and null otherwise', () => {
    expect(samlClaims('a@b.example', null, {}).email).toBe('a@b.example');
    expect(samlClaims('opaque-id', null, { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name': 'upn@corp.example' }).email).toBe('upn@corp.example');
    expect(samlClaims('opaque-id', null, {}).email).toBeNull();
    expect(looksLikeEmail('a b@c.de')).toBe(false);
    expect(looksLikeEmail('a@@c.de')).toBe(false);
    expect(looksLikeEmail('a@c')).toBe(false);
  });
});
