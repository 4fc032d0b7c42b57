/** What other features may use of the shop's settings (docs/architecture.md, "Walls"). */
export { getMaxProfileLinks, getStudio } from './settings.service';
