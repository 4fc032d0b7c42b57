/** What other features may use of scim (docs/architecture.md, "Walls"). */
export { syncedFieldsOf } from './scim-settings.service';
