/** What other features may use of audit (docs/architecture.md, "Walls"). */
export { recordIdentityEvent } from './audit.service';
