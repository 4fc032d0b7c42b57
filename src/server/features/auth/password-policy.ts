import { createRequire } from 'node:module';
import { PASSWORD_TOO_COMMON } from '#shared/auth-rules';
import { badRequest } from '#server/http/http-errors';

/**
 * Refuses the passwords an attacker tries first (ASVS 5.0 6.2.4, 6.2.11): the common-passwords
 * list shipped by `@zxcvbn-ts/language-common` (about 49,000 entries, most common first, taken
 * from real leaks), and a password equal to the account's e-mail or username. The list is read
 * once per process, on the first password that is checked, and kept as a Set.
 */
let common: Set<string> | null = null;
const nodeRequire = createRequire(import.meta.url);

function commonPasswords(): Set<string> {
  if (common) return common;
  const { dictionary } = nodeRequire('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
  common = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

/** How many entries the list holds (tests check it is the full list, not a sample). */
export function commonPasswordCount(): number {
  return commonPasswords().size;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/**
 * Throws 400 `{ message, errors: { [field]: PASSWORD_TOO_COMMON } }` for a common password or one
 * equal to the e-mail or username (case-insensitive). Length is checked by the zod contract.
 */
export function assertPasswordAllowed(password: string, account: { email?: string | null; username?: string | null }, field = 'password') {
  const p = password.trim().toLowerCase();
  const same = [account.email, account.username].some((v) => !!v && v.trim().toLowerCase() === p);
  if (same || isCommonPassword(password) || isCommonPassword(password.trim())) {
    throw badRequest(PASSWORD_TOO_COMMON, { [field]: PASSWORD_TOO_COMMON });
  }
}
