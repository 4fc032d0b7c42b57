/** What other features may use of the shop's settings (docs/architecture.md, "Walls"). */
export { getStudio } from './settings.service';
