import { z } from 'zod';
import { binaryFile, emailField, isoDateTime } from './common';
import { AuthUserResponse, PASSWORD_MAX, passwordField } from './auth';

/** Reset links live this long (and are used once). */
export const RESET_TOKEN_TTL_MINUTES = 60;
/** E-mail change links live this long (and are used once). */
export const EMAIL_CHANGE_TTL_HOURS = 24;

export const ACCOUNT_MESSAGES = {
  forgotSent: 'If an account exists for that email, we have sent a link to reset the password. The link works for 1 hour.',
  resetDone: 'Your password has been reset. You are now signed in.',
  resetInvalid: 'This reset link is invalid or has expired. Please ask for a new one.',
  wrongPassword: 'Your current password is incorrect.',
  passwordChanged: 'Your password has been changed. Other devices have been signed out.',
  emailChangeSent: 'We have sent a confirmation link to your new email address. The change takes effect when you open it.',
  emailChanged: 'Your email address has been changed.',
  emailLinkInvalid: 'This confirmation link is invalid or has expired.',
  emailTaken: 'An account with this email already exists',
  emailSame: 'This is already your email address',
  sessionsEnded: 'Signed out of every other device.',
  accountDeleted: 'Your account has been deleted.',
  transferFirst: (team: string) => `Transfer ownership of ${team} before deleting your account`,
} as const;

/** Tokens we hand out are base64url; anything else is refused before a lookup. */
const tokenField = (message: string) =>
  z
    .string()
    .min(1, message)
    .max(200, message)
    .regex(/^[A-Za-z0-9_-]+$/, message);

const currentPasswordField = z
  .string()
  .min(1, 'Please enter your current password.')
  .max(PASSWORD_MAX, ACCOUNT_MESSAGES.wrongPassword);

const confirmField = z.string().max(PASSWORD_MAX, "Passwords don't match");

export const PasswordForgotBody = z.strictObject({
  email: emailField('Please enter a valid email address'),
});

export const PasswordResetBody = z
  .strictObject({
    token: tokenField(ACCOUNT_MESSAGES.resetInvalid),
    password: passwordField,
    confirmPassword: confirmField,
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });
export type ResetPasswordInput = z.input<typeof PasswordResetBody>;

export const PasswordChangeBody = z
  .strictObject({
    currentPassword: currentPasswordField,
    newPassword: passwordField,
    confirmPassword: confirmField,
    /** also revoke every API token and disable every webhook endpoint of the account (issue 33) */
    revokeAccess: z.boolean().default(true),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });
export type ChangePasswordInput = z.input<typeof PasswordChangeBody>;

export const EmailChangeBody = z.strictObject({
  newEmail: emailField('Please enter a valid email address'),
  currentPassword: currentPasswordField,
});
export type ChangeEmailInput = z.input<typeof EmailChangeBody>;

export const EmailConfirmBody = z.strictObject({
  token: tokenField(ACCOUNT_MESSAGES.emailLinkInvalid),
});

export const AccountDeleteBody = z.strictObject({
  password: z.string().min(1, 'Please enter your password to confirm.').max(PASSWORD_MAX, ACCOUNT_MESSAGES.wrongPassword),
});

/** One signed-in device, as listed on the account page. */
export const AccountSession = z.strictObject({
  /** opaque, stable per session; not the cookie and not its stored hash */
  id: z.string(),
  current: z.boolean(),
  device: z.string(),
  ip: z.string(),
  createdAt: isoDateTime,
  lastSeenAt: isoDateTime,
});
export type AccountSession = z.infer<typeof AccountSession>;

/** GET /api/account: the signed-in user and the address an e-mail change waits to confirm. */
export const AccountGetResponse = AuthUserResponse.extend({ pendingEmail: z.string().nullable() });
export type AccountInfo = z.infer<typeof AccountGetResponse>;

export const AccountSessionListResponse = z.strictObject({ sessions: z.array(AccountSession) });

export const AccountSessionsRevokeResponse = z.strictObject({ message: z.string(), ended: z.number().int().nonnegative() });

export const PasswordResetResponse = z.strictObject({ message: z.string(), user: AuthUserResponse });

export const EmailChangeResponse = z.strictObject({ message: z.string(), pendingEmail: z.string() });
export type EmailChangeResponse = z.infer<typeof EmailChangeResponse>;

export const EmailConfirmResponse = z.strictObject({ message: z.string(), email: z.string() });

/** GET /api/account/export: a JSON file of everything kept about the account (streamed as a download). */
export const AccountExportResponse = binaryFile('application/json (attachment)');
