/**
 * What a SAML assertion says about the person (decision 39-04): the e-mail address (the NameID in
 * the e-mail format, else an e-mail attribute, else a NameID that is an address), the name and the
 * common profile attributes, under the names Entra ID, Okta, Google Workspace and LDAP-style
 * directories send. Attribute names are compared without case; every value is trimmed and capped.
 */

const WS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';
const MS = 'http://schemas.microsoft.com/identity/claims/';

const NAMES = {
  email: ['email', 'mail', 'emailaddress', 'user.email', `${WS}emailaddress`, 'urn:oid:0.9.2342.19200300.100.1.3'],
  // Entra ID's "name" claim is the UPN, often the address: used only when nothing else names one
  upn: [`${WS}name`, `${WS}upn`, 'upn'],
  givenName: ['givenname', 'firstname', 'first_name', 'user.firstname', `${WS}givenname`, 'urn:oid:2.5.4.42'],
  familyName: ['sn', 'surname', 'lastname', 'last_name', 'familyname', 'user.lastname', `${WS}surname`, 'urn:oid:2.5.4.4'],
  name: ['displayname', 'name', 'cn', 'fullname', `${MS}displayname`, 'urn:oid:2.16.840.1.113730.3.1.241', 'urn:oid:2.5.4.3'],
  jobTitle: ['title', 'jobtitle', 'job_title', 'user.title', `${WS}title`, `${MS}jobtitle`, 'http://schemas.microsoft.com/ws/2008/06/identity/claims/jobtitle', 'urn:oid:2.5.4.12'],
  department: ['department', 'user.department', `${MS}department`, 'http://schemas.microsoft.com/ws/2008/06/identity/claims/department', 'urn:oid:2.5.4.11'],
  phone: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'telephonenumber', 'user.mobilephone', `${WS}mobilephone`, `${WS}otherphone`, 'urn:oid:0.9.2342.19200300.100.1.41', 'urn:oid:2.5.4.20'],
  company: ['company', 'companyname', 'organization', 'organizationname', `${MS}companyname`, 'urn:oid:2.5.4.10'],
} as const;

export interface SamlClaims {
  email: string | null;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  jobTitle: string | null;
  department: string | null;
  phone: string | null;
  company: string | null;
}

const MAX = 200;

function clean(v: unknown): string | null {
  const first = Array.isArray(v) ? v[0] : v;
  if (typeof first !== 'string') return null;
  const s = first.trim();
  return s.length === 0 ? null : s.slice(0, MAX);
}

/** A plain address check (no regular expression on text from outside): one @, a dot in the domain, no spaces. */
export function looksLikeEmail(s: string): boolean {
  if (s.length > 254) return false;
  const at = s.indexOf('@');
  if (at < 1 || at !== s.lastIndexOf('@')) return false;
  const domain = s.slice(at + 1);
  if (domain.length < 3 || !domain.includes('.') || domain.startsWith('.') || domain.endsWith('.')) return false;
  for (const ch of s) if (ch === ' ' || ch === '<' || ch === '>' || ch === ',' || ch === ';' || ch.charCodeAt(0) < 33) return false;
  return true;
}

export function samlClaims(nameId: string | null, nameIdFormat: string | null, attributes: Record<string, unknown>): SamlClaims {
  const lower = new Map<string, unknown>();
  for (const [k, v] of Object.entries(attributes)) lower.set(k.toLowerCase(), v);
  const pick = (names: readonly string[]) => {
    for (const n of names) {
      const v = clean(lower.get(n.toLowerCase()));
      if (v) return v;
    }
    return null;
  };
  const nid = nameId ? nameId.trim() : null;
  const emailFormat = nameIdFormat === 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
  const candidates = [emailFormat ? nid : null, pick(NAMES.email), nid, pick(NAMES.upn)];
  const email = candidates.find((c): c is string => !!c && looksLikeEmail(c))?.toLowerCase() ?? null;
  const givenName = pick(NAMES.givenName);
  const familyName = pick(NAMES.familyName);
  const joined = [givenName, familyName].filter(Boolean).join(' ');
  return {
    email,
    name: pick(NAMES.name) ?? (joined || null),
    givenName,
    familyName,
    jobTitle: pick(NAMES.jobTitle),
    department: pick(NAMES.department),
    phone: pick(NAMES.phone),
    company: pick(NAMES.company),
  };
}
