/** What other features may use of profile (docs/architecture.md, "Walls"). */
export { createProfile, findProfileRowByUser, getProfileForUser } from './profile.service';
export { loadPublicProfile } from './public-profile.cache';
export { applyTeamLook, deleteProfileOfUser, memberPageChanged, setLeadFormEnabled, teamPagesChanged } from './profile-writes';
export { escapeText, foldLine, splitName } from './vcard';
export type { PageEvent } from './visitor';
export { setDirectoryFields, type DirectoryProfileFields } from './directory-writes';
