/**
 * Password length rules (spec: at least 6 characters). Kept apart from the zod contracts in
 * schemas/auth.ts so the sign-up page can check the length without loading zod.
 */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
