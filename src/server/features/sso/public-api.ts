/** What other features may use of sso (docs/architecture.md, "Walls"). */
// auth asks it at every password sign-in (passed in from the composition root, routes.ts)
export { passwordSignInPolicy } from './sso-policy';
