/**
 * Password length rules (spec: at least 6 characters). Kept apart from the zod contracts in
 * schemas/auth.ts so the sign-up page can check the length without loading zod.
 */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

/** The answer for a password from the common-passwords list, or equal to the e-mail or username (issue 19). */
export const PASSWORD_TOO_COMMON = 'This password is too common. Please choose another.';

/** E-mail verification (issue 19): links live this long and are used once. */
export const VERIFY_EMAIL_TTL_HOURS = 24;
/** The least time between two "Resend" presses (the server answers 429 sooner). */
export const VERIFY_RESEND_SECONDS = 60;

export const VERIFY_MESSAGES = {
  banner: 'Please verify your email address. We sent you a link when you signed up.',
  sent: 'We have sent a new verification link to your email address.',
  verified: 'Your email address is verified. Thank you!',
  already: 'Your email address is already verified.',
  invalid: 'This verification link is invalid or has expired. Sign in and press "Resend" for a new one.',
  tooSoon: 'A verification link was sent a moment ago. Please wait a minute before asking for another.',
} as const;
