/** What other features may use of scim (docs/architecture.md, "Walls"). */
// single sign-on fills a member's profile by the same field rules (decision 39-03)
export { teamScimConfig } from './scim-settings.service';
// the profile save refuses changes to the fields the directory keeps in sync (decision 39-05)
export { syncedFieldsOf } from './scim-settings.service';
