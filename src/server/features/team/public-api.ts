/** What other features may use of team (docs/architecture.md, "Walls"). */
export { settleOwnedTeam } from './members.service';
export { addDirectoryMember, offboardDirectoryMember, setDirectoryRole, teamMembersSince, teamRoleOf } from './directory';
