/** What other features may use of auth (docs/architecture.md, "Walls"). */
export { endOtherSessions, endSession, findUserByEmail, hashPassword, registerUser, verifyPassword } from './auth.service';
export { assertPasswordAllowed } from './password-policy';
export { isListedAdmin } from './email-verification.service';
