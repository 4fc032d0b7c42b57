/** What other features may use of templates (docs/architecture.md, "Walls"). */
export { getTemplate, renderCard, type CardRenderInput } from './templates.service';
export { checkedLook, lookInputOf } from './card-input';
export { logoDataUri, warmTemplateThumbnails } from './templates.service';
export { findVersion } from './template-versions.service';
