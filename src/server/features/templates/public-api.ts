/** What other features may use of templates (docs/architecture.md, "Walls"). */
export { getTemplate, renderCard } from './templates.service';
export { checkedLook } from './design.service';
export { logoDataUri } from './templates.service';
export { findVersion } from './template-versions.service';
