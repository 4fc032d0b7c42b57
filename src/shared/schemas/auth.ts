import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, VERIFY_MESSAGES } from '#shared/auth-rules';
import { emailField, isoDateTime, MessageResponse, singleLine } from './common';

export { PASSWORD_MAX, PASSWORD_MIN };

export const passwordField = z
  .string()
  .min(PASSWORD_MIN, 'Password must be at least 6 characters long.')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long.`);

/**
 * Owner proof before handing out lasting access (issue 33, decision 33-01): creating an API token or
 * a webhook endpoint needs a verified address and the account's password in the same request.
 */
export const OWNER_PROOF_MESSAGES = {
  verifyFirst: 'Verify your email address first: API tokens and webhooks can only be created by an account whose email address is confirmed. Open the link we sent you, or ask for a new one.',
  passwordNeeded: 'Enter your password to confirm it is you.',
  wrongPassword: 'Your password is incorrect.',
} as const;

/** The account's password, asked again before a token or webhook endpoint is created. */
export const confirmPasswordField = z.string({ error: OWNER_PROOF_MESSAGES.passwordNeeded }).min(1, OWNER_PROOF_MESSAGES.passwordNeeded).max(PASSWORD_MAX, OWNER_PROOF_MESSAGES.wrongPassword);

export const AuthRegisterBody = z
  .strictObject({
    username: singleLine(40, 'Username').pipe(
      z
        .string()
        .min(1, 'Please fill in all required fields.')
        .regex(/^[A-Za-z0-9._-]+$/, 'Username may use letters, numbers, dots, dashes and underscores'),
    ),
    email: emailField('Please enter a valid email address'),
    password: passwordField,
    confirmPassword: z.string().max(PASSWORD_MAX, "Passwords don't match"),
    firstName: singleLine(80, 'First name').optional().default(''),
    lastName: singleLine(80, 'Last name').optional().default(''),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });

export const AuthLoginBody = z.strictObject({
  email: z
    .string()
    .trim()
    .min(1, 'Please enter your email and password.')
    .max(254, 'Please check your email and password.')
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'Please check your email and password.'),
  password: z.string().min(1, 'Please enter your email and password.').max(PASSWORD_MAX, 'Please check your email and password.'),
});

/** The e-mail verification link's token (issue 19). */
export const VerifyEmailBody = z.strictObject({
  token: z
    .string()
    .min(1, VERIFY_MESSAGES.invalid)
    .max(200, VERIFY_MESSAGES.invalid)
    .regex(/^[A-Za-z0-9_-]+$/, VERIFY_MESSAGES.invalid),
});

/** The signed-in user as every answer shows it (register, login, GET /api/auth/user). */
export const AuthUserResponse = z.strictObject({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(['user', 'admin']),
  /** the address was confirmed by a link sent to it */
  emailVerified: z.boolean(),
  createdAt: isoDateTime,
});
export type AuthUser = z.infer<typeof AuthUserResponse>;

/**
 * GET /api/auth/session: who is signed in, `{ user: null }` for a visitor. The web client asks this
 * on every page: a 200 either way, so a visitor's browser logs no failed request (issue 36; the
 * spec's GET /api/auth/user keeps its 401 for signed-out callers).
 */
export const AuthSessionResponse = z.strictObject({ user: AuthUserResponse.nullable() });

export const AuthLogoutResponse = MessageResponse;
/** POST /api/auth/verify-email: the fresh user when the link was opened in its own signed-in browser. */
export const AuthVerifyEmailResponse = z.strictObject({ message: z.string(), user: AuthUserResponse.nullable() });
export const AuthVerifyResendResponse = MessageResponse;
