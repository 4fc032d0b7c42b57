/**
 * Bounds on XML we did not write (a SAML response posted by a browser, an identity provider's
 * metadata), checked before any parser sees it (decision 39-04). One forward pass over the text,
 * no regular expression: a size cap, no DOCTYPE or ENTITY declaration (entity expansion, external
 * entities), a cap on elements and on nesting depth (parsers and the signature code recurse).
 */

export const SAML_XML_LIMITS = {
  /** a decoded SAML response (Entra ID and Okta send 5-30 kB; many group claims stay well under) */
  responseChars: 256 * 1024,
  /** an identity provider's metadata document */
  metadataChars: 1024 * 1024,
  elements: 20_000,
  depth: 64,
} as const;

export type XmlGuardResult = { ok: true } | { ok: false; message: string };

function startsAt(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let k = 0; k < word.length; k++) {
    const a = text.charCodeAt(at + k);
    const b = word.charCodeAt(k);
    // ASCII case-insensitive compare (the declarations are upper case; a parser may accept others)
    if (a !== b && !(a >= 97 && a <= 122 && a - 32 === b)) return false;
  }
  return true;
}

/** Checks `xml` (already decoded text) against the limits; linear in its length. */
export function guardXml(xml: string, maxChars: number): XmlGuardResult {
  if (xml.length === 0) return { ok: false, message: 'The XML is empty' };
  if (xml.length > maxChars) return { ok: false, message: `The XML is too large (at most ${Math.floor(maxChars / 1024)} kB)` };
  let depth = 0;
  let elements = 0;
  let i = xml.indexOf('<');
  while (i !== -1) {
    const next = xml.charCodeAt(i + 1);
    if (next === 33 /* ! */) {
      if (startsAt(xml, i + 2, '--')) {
        const end = xml.indexOf('-->', i + 4);
        if (end === -1) return { ok: false, message: 'The XML is malformed (an unclosed comment)' };
        i = xml.indexOf('<', end + 3);
        continue;
      }
      if (startsAt(xml, i + 2, '[CDATA[')) {
        const end = xml.indexOf(']]>', i + 9);
        if (end === -1) return { ok: false, message: 'The XML is malformed (an unclosed CDATA section)' };
        i = xml.indexOf('<', end + 3);
        continue;
      }
      if (startsAt(xml, i + 2, 'DOCTYPE') || startsAt(xml, i + 2, 'ENTITY')) return { ok: false, message: 'The XML may not contain a DOCTYPE or entity declaration' };
      return { ok: false, message: 'The XML contains a declaration that is not allowed' };
    }
    const end = xml.indexOf('>', i + 1);
    if (end === -1) return { ok: false, message: 'The XML is malformed (an unclosed tag)' };
    if (next === 63 /* ? */) {
      // processing instructions (the XML declaration): nothing to count
    } else if (next === 47 /* / */) {
      depth--;
      if (depth < 0) return { ok: false, message: 'The XML is malformed (a closing tag without its opening tag)' };
    } else {
      elements++;
      if (elements > SAML_XML_LIMITS.elements) return { ok: false, message: `The XML has too many elements (at most ${SAML_XML_LIMITS.elements})` };
      if (xml.charCodeAt(end - 1) !== 47 /* / */) {
        depth++;
        if (depth > SAML_XML_LIMITS.depth) return { ok: false, message: `The XML is nested too deeply (at most ${SAML_XML_LIMITS.depth} levels)` };
      }
    }
    i = xml.indexOf('<', end + 1);
  }
  if (elements === 0) return { ok: false, message: 'The XML has no element' };
  return { ok: true };
}
