/** Why an SSO sign-in ended on the sign-in page (`/login?sso_error=<code>`). */
export const SSO_ERRORS = {
  'not-available': 'Single sign-on is not set up for this e-mail address.',
  failed: 'Single sign-on did not complete. Please try again.',
  expired: 'The single sign-on attempt expired. Please try again.',
  'wrong-domain': 'Your identity provider signed you in with an address outside your company’s verified domains.',
  'other-team': 'This account belongs to another team. Ask its owner to remove you first.',
  'team-full': 'Your company’s team is full. Ask its owner for a seat.',
  'staff-account': 'Staff accounts sign in with their password and second factor.',
  'not-verified': 'Your identity provider has not verified this e-mail address.',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERRORS;
