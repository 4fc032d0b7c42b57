import { SCIM_SCHEMAS } from '#shared/schemas/scim';

/**
 * The pure part of SCIM 2.0 (RFC 7643/7644; issue 39, decision 39-02): errors, filters, attribute
 * paths and PATCH operations, written for what Entra ID and Okta really send (capitalised `op`
 * values, path-less value objects whose keys are paths, `emails[type eq "work"].value`, booleans
 * as the strings "True"/"False", the enterprise extension by its URN).
 */

export type ScimErrorType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers' | 'sensitive';

/** An error answered in the SCIM error schema (RFC 7644 section 3.12). */
export class ScimError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly scimType?: ScimErrorType,
  ) {
    super(message);
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');
export const notFoundScim = (detail = 'Resource not found') => new ScimError(404, detail);
export const uniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');

export function errorDocument(status: number, detail: string, scimType?: string) {
  return { schemas: [SCIM_SCHEMAS.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Doc = Record<string, Json>;

export const ENTERPRISE = SCIM_SCHEMAS.enterprise;
const CORE_USER = SCIM_SCHEMAS.user;
const CORE_GROUP = SCIM_SCHEMAS.group;

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Attribute names are case-insensitive (RFC 7643 2.1): the names we know, in their canonical spelling. */
const CANONICAL = new Map(
  [
    'id', 'externalId', 'userName', 'name', 'formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix',
    'displayName', 'nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone', 'active', 'emails', 'phoneNumbers',
    'addresses', 'value', 'type', 'primary', 'display', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'employeeNumber',
    'costCenter', 'organization', 'division', 'department', 'manager', 'members', 'groups', 'roles', 'photos', 'ims', 'entitlements',
    'x509Certificates', 'meta', 'schemas', 'password', '$ref',
  ].map((n) => [n.toLowerCase(), n]),
);
export const canonical = (name: string) => CANONICAL.get(name.toLowerCase()) ?? name;

/** Attributes a client may not set through the resource (server-owned or write-only). */
const IGNORED = new Set(['id', 'meta', 'schemas', 'password', 'groups']);

const MAX_DEPTH = 4;
const MAX_STRING = 2048;
const MAX_ARRAY = 50;

/** A client's value, with attribute names canonical and sizes capped (bad shapes: invalidValue). */
export function cleanValue(v: unknown, depth = 0): Json {
  if (depth > MAX_DEPTH) throw invalidValue('The value is nested too deeply');
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw invalidValue('Numbers must be finite');
    return v;
  }
  if (typeof v === 'string') {
    if (v.length > MAX_STRING) throw invalidValue(`A value is longer than ${MAX_STRING} characters`);
    return v;
  }
  if (Array.isArray(v)) {
    if (v.length > MAX_ARRAY) throw invalidValue(`A list holds more than ${MAX_ARRAY} values`);
    return v.map((x) => cleanValue(x, depth + 1));
  }
  if (isObject(v)) {
    const out: Doc = {};
    const keys = Object.keys(v);
    if (keys.length > 60) throw invalidValue('An object holds too many attributes');
    for (const k of keys) {
      if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
      out[k.toLowerCase().startsWith('urn:') ? k : canonical(k)] = cleanValue(v[k], depth + 1);
    }
    return out;
  }
  throw invalidValue('Unsupported value');
}

/** "True"/"False" (Entra ID sends booleans as strings in PATCH) and real booleans. */
export function toBoolean(v: Json | undefined, what: string): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  throw invalidValue(`${what} must be true or false`);
}

/**
 * A user resource from a client (POST, PUT) as our stored document: names canonical, the
 * enterprise extension under its URN key, server-owned attributes dropped, extension attributes
 * sent flat (`"urn:...:enterprise:2.0:User:department": "x"`) folded in.
 */
export function userDocument(body: unknown): Doc {
  if (!isObject(body)) throw invalidSyntax('The request body must be a JSON object');
  const clean = cleanValue(body) as Doc;
  const doc: Doc = {};
  for (const [k, v] of Object.entries(clean)) {
    if (IGNORED.has(k)) continue;
    if (k.toLowerCase() === ENTERPRISE.toLowerCase()) {
      if (!isObject(v)) throw invalidValue('The enterprise extension must be an object');
      doc[ENTERPRISE] = { ...(isObject(doc[ENTERPRISE]) ? doc[ENTERPRISE] : {}), ...v };
      continue;
    }
    if (k.toLowerCase().startsWith('urn:')) {
      applyOperation(doc, 'add', k, v);
      continue;
    }
    doc[k] = v;
  }
  normalizeManager(doc);
  return doc;
}

/** manager: a string id, `{ value }` or `[{ value }]` (Entra ID) become `{ value }`. */
function normalizeManager(doc: Doc) {
  const ext = doc[ENTERPRISE];
  if (!isObject(ext) || !('manager' in ext)) return;
  let m = ext.manager;
  if (Array.isArray(m)) m = m[0] ?? null;
  if (typeof m === 'string') ext.manager = m ? { value: m } : null;
  else if (isObject(m)) ext.manager = typeof m.value === 'string' && m.value ? { value: m.value, ...(typeof m.displayName === 'string' ? { displayName: m.displayName } : {}) } : null;
  else ext.manager = null;
}

// ---------------------------------------------------------------- paths

export interface ValueFilter {
  attr: string;
  value: string | boolean | number | null;
}
export interface AttrPath {
  /** the enterprise extension's URN when the path is inside it */
  ext: boolean;
  attr: string;
  filter?: ValueFilter;
  sub?: string;
}

const URN_CORE_PREFIX = [`${CORE_USER}:`, `${CORE_GROUP}:`];

/** `title`, `name.givenName`, `emails[type eq "work"].value`, `urn:...:enterprise:2.0:User:manager`, `members[value eq "id"]`. */
export function parsePath(raw: string): AttrPath {
  let p = raw.trim();
  if (!p || p.length > 300) throw invalidPath('The path is empty or too long');
  let ext = false;
  const lower = p.toLowerCase();
  if (lower.startsWith(`${ENTERPRISE.toLowerCase()}:`)) {
    ext = true;
    p = p.slice(ENTERPRISE.length + 1);
  } else if (lower === ENTERPRISE.toLowerCase()) {
    throw invalidPath('Name an attribute of the enterprise extension');
  } else {
    for (const prefix of URN_CORE_PREFIX) if (lower.startsWith(prefix.toLowerCase())) p = p.slice(prefix.length);
  }
  const m = /^([A-Za-z$][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z$][\w$-]*))?$/.exec(p);
  if (!m) throw invalidPath(`The path "${raw.slice(0, 100)}" is not one this service understands`);
  const out: AttrPath = { ext, attr: canonical(m[1]!) };
  if (m[2]) out.filter = parseValueFilter(m[2]);
  if (m[3]) out.sub = canonical(m[3]);
  return out;
}

/** The comparison inside brackets: `type eq "work"`, `value eq "id"`, `primary eq true`. */
function parseValueFilter(text: string): ValueFilter {
  const f = parseFilter(text);
  if (f.length !== 1 || f[0]!.attr.includes('.')) throw invalidPath('Only one "attribute eq value" comparison is supported inside brackets');
  return { attr: f[0]!.attr, value: f[0]!.value };
}

// ---------------------------------------------------------------- filters

export interface Comparison {
  /** canonical, e.g. userName, emails.value, externalId */
  attr: string;
  value: string | boolean | number | null;
}

/**
 * A filter of `eq` comparisons joined by `and` (what Entra ID and Okta send:
 * `userName eq "x"`, `externalId eq "y"`, `displayName eq "z"`). Anything else: invalidFilter.
 */
export function parseFilter(text: string): Comparison[] {
  const out: Comparison[] = [];
  let rest = text.trim();
  if (!rest) throw new ScimError(400, 'The filter is empty', 'invalidFilter');
  for (;;) {
    const m = /^([A-Za-z:.$0-9_-]+?)\s+eq\s+("(?:[^"\\]|\\.)*"|true|false|null|-?\d+(?:\.\d+)?)\s*/i.exec(rest);
    if (!m) throw new ScimError(400, `The filter "${text.slice(0, 100)}" is not supported (use attribute eq "value", joined by and)`, 'invalidFilter');
    let attr = m[1]!;
    const lower = attr.toLowerCase();
    for (const prefix of URN_CORE_PREFIX) if (lower.startsWith(prefix.toLowerCase())) attr = attr.slice(prefix.length);
    attr = attr
      .split('.')
      .map((s) => canonical(s))
      .join('.');
    const raw = m[2]!;
    let value: Comparison['value'];
    if (raw.startsWith('"')) {
      try {
        value = JSON.parse(raw) as string;
      } catch {
        throw new ScimError(400, 'The filter holds a malformed string', 'invalidFilter');
      }
    } else if (/^(true|false)$/i.test(raw)) value = raw.toLowerCase() === 'true';
    else if (/^null$/i.test(raw)) value = null;
    else value = Number(raw);
    out.push({ attr, value });
    rest = rest.slice(m[0].length);
    if (!rest) return out;
    const and = /^and\s+/i.exec(rest);
    if (!and || out.length >= 5) throw new ScimError(400, `The filter "${text.slice(0, 100)}" is not supported (use attribute eq "value", joined by and)`, 'invalidFilter');
    rest = rest.slice(and[0].length);
  }
}

const same = (a: Json | undefined, b: ValueFilter['value']) =>
  typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;

function matches(item: Json, f: ValueFilter): boolean {
  return isObject(item) && same(item[canonical(f.attr)], f.value);
}

// ---------------------------------------------------------------- PATCH

export type PatchOp = 'add' | 'replace' | 'remove';

export function opOf(raw: unknown): PatchOp {
  const op = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (op === 'add' || op === 'replace' || op === 'remove') return op;
  throw invalidSyntax(`Unknown operation "${String(raw).slice(0, 30)}" (use add, replace or remove)`);
}

/** The Operations of a PatchOp request (schema checked leniently: Entra ID and Okta both send it). */
export function patchOperations(body: unknown): Array<{ op: PatchOp; path?: string; value?: Json }> {
  if (!isObject(body)) throw invalidSyntax('The request body must be a JSON object');
  const key = Object.keys(body).find((k) => k.toLowerCase() === 'operations');
  const ops = key ? body[key] : undefined;
  if (!Array.isArray(ops) || ops.length === 0) throw invalidSyntax('Operations must be a non-empty list');
  if (ops.length > 100) throw invalidValue('At most 100 operations per request');
  return ops.map((raw) => {
    if (!isObject(raw)) throw invalidSyntax('Each operation must be an object');
    const get = (name: string) => raw[Object.keys(raw).find((k) => k.toLowerCase() === name) ?? ''];
    const path = get('path');
    if (path !== undefined && path !== null && typeof path !== 'string') throw invalidPath('path must be a string');
    const value = get('value');
    return { op: opOf(get('op')), ...(typeof path === 'string' && path.trim() ? { path } : {}), ...(value !== undefined ? { value: cleanValue(value) } : {}) };
  });
}

/**
 * Applies one operation to a resource document (RFC 7644 3.5.2). A path-less add or replace takes
 * an object whose keys are paths. Multi-valued attributes: add appends (a value of the same type
 * replaces the old one), a filtered path edits the matching values and adds one when none
 * matches (Entra ID sets a new work e-mail that way).
 */
export function applyOperation(doc: Doc, op: PatchOp, path: string | undefined, value: Json | undefined): void {
  if (path === undefined) {
    if (op === 'remove') throw new ScimError(400, 'A remove operation needs a path', 'noTarget');
    if (!isObject(value)) throw invalidValue('An operation without a path needs an object value');
    for (const [k, v] of Object.entries(value)) {
      if (k.toLowerCase() === ENTERPRISE.toLowerCase() && isObject(v)) {
        for (const [ek, ev] of Object.entries(v)) applyOperation(doc, op, `${ENTERPRISE}:${ek}`, ev);
      } else applyOperation(doc, op, k, v);
    }
    return;
  }
  const p = parsePath(path);
  if (!p.ext && IGNORED.has(p.attr)) return;
  let container: Doc = doc;
  if (p.ext) {
    if (!isObject(doc[ENTERPRISE])) doc[ENTERPRISE] = {};
    container = doc[ENTERPRISE] as Doc;
  }
  const current = container[p.attr];
  if (p.filter) {
    const list = Array.isArray(current) ? current : [];
    const hits = list.filter((item) => matches(item, p.filter!));
    if (op === 'remove') {
      container[p.attr] = p.sub ? list.map((item) => (hits.includes(item) && isObject(item) ? omit(item, p.sub!) : item)) : list.filter((item) => !hits.includes(item));
      return;
    }
    if (!hits.length) {
      const fresh: Doc = { [canonical(p.filter.attr)]: p.filter.value as Json };
      if (p.sub) fresh[p.sub] = value ?? null;
      else if (isObject(value)) Object.assign(fresh, value);
      container[p.attr] = [...list, fresh];
      return;
    }
    container[p.attr] = list.map((item) => {
      if (!hits.includes(item) || !isObject(item)) return item;
      if (p.sub) return { ...item, [p.sub]: value ?? null };
      return isObject(value) ? { ...item, ...value } : item;
    });
    return;
  }
  if (p.sub) {
    if (op === 'remove') {
      if (isObject(current)) container[p.attr] = omit(current, p.sub);
      return;
    }
    container[p.attr] = { ...(isObject(current) ? current : {}), [p.sub]: value ?? null };
    return;
  }
  if (op === 'remove') {
    delete container[p.attr];
    return;
  }
  if (op === 'add' && Array.isArray(current)) {
    const added = Array.isArray(value) ? value : [value ?? null];
    const typeOf = (x: Json) => (isObject(x) && typeof x.type === 'string' ? x.type.toLowerCase() : null);
    const addedTypes = new Set(added.map(typeOf).filter((t) => t !== null));
    const addedValues = new Set(added.map((x) => (isObject(x) ? JSON.stringify(x.value ?? null) : null)).filter((v) => v !== null));
    container[p.attr] = [...current.filter((x) => !addedTypes.has(typeOf(x) ?? '\u0000') && !(isObject(x) && addedValues.has(JSON.stringify(x.value ?? null)))), ...added];
    return;
  }
  if (op === 'add' && isObject(current) && isObject(value)) {
    container[p.attr] = { ...current, ...value };
    return;
  }
  container[p.attr] = value ?? null;
}

function omit(o: Doc, key: string): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(o)) if (k !== key) out[k] = v;
  return out;
}

/** After PATCH: the manager and extension in their stored shape. */
export function tidyUserDocument(doc: Doc): Doc {
  normalizeManager(doc);
  return doc;
}

// ---------------------------------------------------------------- reading a user document

export const str = (v: Json | undefined): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The work value of a multi-valued attribute, else the primary one, else the first. */
export function pickValue(list: Json | undefined): Doc | null {
  if (!Array.isArray(list)) return null;
  const items = list.filter(isObject);
  return items.find((x) => typeof x.type === 'string' && x.type.toLowerCase() === 'work') ?? items.find((x) => x.primary === true || x.primary === 'True' || x.primary === 'true') ?? items[0] ?? null;
}

export function enterpriseOf(doc: Doc): Doc {
  return isObject(doc[ENTERPRISE]) ? (doc[ENTERPRISE] as Doc) : {};
}

export function nameParts(doc: Doc): { given: string | null; family: string | null; formatted: string | null } {
  const n = isObject(doc.name) ? doc.name : {};
  return { given: str(n.givenName), family: str(n.familyName), formatted: str(n.formatted) };
}

export { isObject };
