/** What other features may use of auth (docs/architecture.md, "Walls"). */
export { endOtherSessions, endSession, findUserByEmail, hashPassword, registerUser } from './auth.service';
export { assertPasswordAllowed } from './password-policy';
export { checkAccountPassword, proveOwner } from './owner-proof';
export { deleteUserRow, endAllSessions, markEmailProven, setPasswordHash, setProvenEmail } from './user-writes';
export { factorsOf, hasSecondFactor } from './two-factor.service';
export { isListedAdmin } from './email-verification.service';
