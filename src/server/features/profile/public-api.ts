/** What other features may use of profile (docs/architecture.md, "Walls"). */
export { createProfile, findProfileRowByUser, getProfileForUser } from './profile.service';
export { invalidatePublicProfile, invalidateTeamPages, loadPublicProfile } from './public-profile.cache';
export { escapeText, foldLine, splitName } from './vcard';
