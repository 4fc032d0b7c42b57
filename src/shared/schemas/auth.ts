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

// ---- passkeys and two-factor sign-in (issue 39, decision 39-01)
/**
 * Passkeys and two-factor sign-in (issue 39, decision 39-01): the request and answer shapes of the
 * TOTP set-up, the sign-in's second step, re-authentication and the passkey ceremonies.
 */
export const TWO_FACTOR_MESSAGES = {
  codeNeeded: 'Enter the 6-digit code from your authenticator app or a recovery code.',
  wrongCode: 'That code is not right. Check your authenticator app and try again.',
  usedCode: 'That code was already used. Wait for the next one and try again.',
  noPending: 'Your sign-in has expired. Please sign in again.',
  tooManyCodes: 'Too many wrong codes. Please sign in again.',
  alreadyOn: 'Two-factor sign-in with an authenticator app is already on.',
  noSetup: 'Start the set-up first: scan a new QR code.',
  notOn: 'Two-factor sign-in with an authenticator app is not on.',
  passwordNeeded: 'Enter your password to confirm it is you.',
  wrongPassword: 'Your password is incorrect.',
  secondFactorFirst: 'Confirm it is you with your current second factor first.',
  setupRequired: 'Staff accounts need a second factor: set up an authenticator app or a passkey in Account settings first.',
  recentAuth: 'For this action, confirm it is you again (sign in again or enter a code).',
  passkeyNameNeeded: 'Give the passkey a name.',
  passkeyNameTooLong: 'A passkey name has at most 60 characters.',
  passkeyFailed: 'The passkey could not be verified. Please try again.',
  passkeyUnknown: 'This passkey is not registered with any account.',
  passkeyExpired: 'The passkey request has expired. Please try again.',
  passkeyOtherAccount: 'This passkey belongs to another account. Use a passkey of the account you are signed in with.',
} as const;

/** What the 403s of the staff guard and of sensitive actions carry as `code` (the web reacts to it). */
export const TWO_FACTOR_SETUP_REQUIRED = 'two_factor_setup_required';
export const RECENT_AUTH_REQUIRED = 'recent_auth_required';

/** A TOTP (6 digits, spaces allowed) or a recovery code (`xxxxx-xxxxx`). */
export const codeField = z
  .string({ error: TWO_FACTOR_MESSAGES.codeNeeded })
  .trim()
  .min(1, TWO_FACTOR_MESSAGES.codeNeeded)
  .max(32, TWO_FACTOR_MESSAGES.wrongCode)
  .regex(/^[A-Za-z0-9 -]+$/, TWO_FACTOR_MESSAGES.wrongCode);

export const TwoFactorCodeBody = z.strictObject({ code: codeField });

export const TotpSetupResponse = z.strictObject({
  /** base32, for typing into an app by hand */
  secret: z.string(),
  /** the `otpauth://totp/...` URI the QR code carries */
  otpauthUrl: z.string(),
});

export const TotpConfirmResponse = z.strictObject({
  /** ten single-use codes, shown this once */
  recoveryCodes: z.array(z.string()).length(10),
});

export const TotpDisableBody = z.strictObject({
  password: z.string({ error: TWO_FACTOR_MESSAGES.passwordNeeded }).min(1, TWO_FACTOR_MESSAGES.passwordNeeded).max(PASSWORD_MAX, TWO_FACTOR_MESSAGES.wrongPassword),
});

export const TwoFactorStatusResponse = z.strictObject({
  totp: z.enum(['off', 'pending', 'on']),
  recoveryCodesLeft: z.number().int().nonnegative(),
  passkeys: z.number().int().nonnegative(),
  /** this session passed a second factor (a code or a passkey) */
  sessionVerified: z.boolean(),
  /** a staff account without a second factor while STAFF_TWO_FACTOR=required: the staff area waits for one */
  staffSetupRequired: z.boolean(),
  /** when this session last proved who it is (sign-in, code or passkey) */
  authenticatedAt: isoDateTime.nullable(),
});

/** POST /api/auth/login when the account has a second factor: no session yet. */
export const TwoFactorRequiredResponse = z.strictObject({
  twoFactorRequired: z.literal(true),
  /** what the account can answer with */
  methods: z.array(z.enum(['totp', 'passkey'])),
});


export const ReauthenticateResponse = z.strictObject({ authenticatedAt: isoDateTime });

// ---- WebAuthn (the JSON forms of the browser's credentials, as @simplewebauthn/browser sends them)

const b64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, TWO_FACTOR_MESSAGES.passkeyFailed);
const transports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(8);
const extensionResults = z.record(z.string(), z.unknown());

export const PasskeyRegistrationCredential = z.strictObject({
  id: b64url(1400).min(1),
  rawId: b64url(1400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4000).min(1),
    attestationObject: b64url(20000).min(1),
    authenticatorData: b64url(20000).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4000).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults.default({}),
});

export const PasskeyAuthenticationCredential = z.strictObject({
  id: b64url(1400).min(1),
  rawId: b64url(1400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4000).min(1),
    authenticatorData: b64url(4000).min(1),
    signature: b64url(2000).min(1),
    userHandle: b64url(200).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults.default({}),
});

const passkeyName = z.string().trim().min(1, TWO_FACTOR_MESSAGES.passkeyNameNeeded).max(60, TWO_FACTOR_MESSAGES.passkeyNameTooLong).refine((s) => !/[\u0000-\u001f\u007f]/.test(s), TWO_FACTOR_MESSAGES.passkeyNameNeeded);

export const PasskeyRegisterBody = z.strictObject({
  name: passkeyName.optional(),
  credential: PasskeyRegistrationCredential,
});
export const PasskeyRenameBody = z.strictObject({ name: passkeyName });
export const PasskeySignInBody = z.strictObject({ credential: PasskeyAuthenticationCredential });
/**
 * POST /api/auth/reauthenticate: the password (accounts without a second factor), a code, or one of
 * the account's passkeys (the browser's answer to `POST /api/auth/passkey/options`; decision 39-05).
 */
export const ReauthenticateBody = z
  .strictObject({
    password: z.string().max(PASSWORD_MAX, TWO_FACTOR_MESSAGES.wrongPassword).optional(),
    code: codeField.optional(),
    credential: PasskeyAuthenticationCredential.optional(),
  })
  .refine((v) => v.password !== undefined || v.code !== undefined || v.credential !== undefined, { message: TWO_FACTOR_MESSAGES.codeNeeded, path: ['code'] });

/** The options for navigator.credentials.create/get, as the server library makes them (passed through to the browser library). */
export const WebAuthnOptionsResponse = z.strictObject({ options: z.record(z.string(), z.unknown()) });

export const PasskeyItem = z.strictObject({
  id: z.string(),
  name: z.string(),
  createdAt: isoDateTime,
  lastUsedAt: isoDateTime.nullable(),
  backedUp: z.boolean(),
});
export type PasskeyItem = z.infer<typeof PasskeyItem>;
export const PasskeyListResponse = z.strictObject({ passkeys: z.array(PasskeyItem) });
export const PasskeyIdParams = z.strictObject({ id: z.uuid({ error: 'Passkey not found' }) });
