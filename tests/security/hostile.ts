import fc from 'fast-check';

/** Strings that have broken web apps: injection, header splitting, prototype keys, odd Unicode, sizes. */
export const HOSTILE_STRINGS = [
  '__proto__',
  'constructor',
  'prototype',
  "' OR '1'='1",
  "'; drop table users; --",
  '1; select pg_sleep(5)',
  '" onmouseover="alert(1)',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '</title><svg onload=alert(1)>',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'a\r\nBcc: victim@example.com',
  'x\r\nSet-Cookie: sid=evil',
  'line1\nEND:VCARD\nBEGIN:VCARD\nFN:Evil',
  '\u0000',
  'nul\u0000byte',
  '\u202egnp.exe',
  '\ud800',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%2e%2e%2f',
  '${7*7}',
  '{{7*7}}',
  "=cmd|' /C calc'!A0",
  '+1+1',
  '@SUM(1+1)',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'a'.repeat(10_000),
  '😀'.repeat(3000),
  ' ',
  '',
  'null',
  'NaN',
  '-1',
  '1e309',
];

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.nat({ max: 300_000 }).map((n) => 'x'.repeat(n)) },
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 31 - 1, 2 ** 53 + 1, -(2 ** 63), 1e308, -0, 0.1),
);

/** Any JSON value, biased towards hostile strings and numbers at the edges. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'role', 'isAdmin', 'userId', 'id')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** Raw bodies that are not what JSON.stringify makes: prototype pollution, broken and deep JSON. */
export const RAW_BODIES = [
  '{"__proto__":{"isAdmin":true,"role":"admin"}}',
  '{"constructor":{"prototype":{"role":"admin"}}}',
  '{"a":1,"__proto__":{"polluted":1}}',
  '{',
  '{"a":',
  '[]',
  'null',
  'true',
  '""',
  '0',
  '{"a":"\\ud800"}',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
  '\u0000\u0001\u0002',
];

/**
 * Bodies for a route: anything at all, the route's own field names filled with hostile values
 * (reaches past "unknown field"), or a raw hostile payload. Answers the text to send.
 */
export function hostileBody(keys: string[]): fc.Arbitrary<string> {
  const arbs: fc.Arbitrary<string>[] = [hostileValue.map((v) => JSON.stringify(v) ?? 'null'), fc.constantFrom(...RAW_BODIES)];
  if (keys.length) {
    const shaped = fc.record(Object.fromEntries(keys.map((k) => [k, hostileValue])), { requiredKeys: [] }).map((o) => JSON.stringify(o));
    arbs.push(shaped, shaped);
  }
  return fc.oneof(...arbs);
}

/** Values for path parameters and query strings. */
export const hostileParam = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 300 && s !== '')),
  fc.string({ minLength: 1, maxLength: 20 }),
  fc.nat().map(String),
  fc.constantFrom('0', '-1', '99999999999999999999', '1.5', '1e3', 'a'.repeat(250)),
);
