/** What other features may use of engagement (docs/architecture.md, "Walls"). */
export { createCardCodeForOrder, orderBatchQrText } from './card-codes.service';
export { visitOrigin } from './visit-source';
