/** What other features may use of developer (docs/architecture.md, "Walls"). */
export { revokeTokens } from './token-writes';
