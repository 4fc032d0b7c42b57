/** What other features may use of engagement (docs/architecture.md, "Walls"). */
export {
  attachOrderCodes,
  createCardCodeForOrder,
  deactivateCodesOfTeam,
  deactivateTeamCodes,
  generateCardCode,
  insertTeamCardCode,
  orderBatchQrText,
  ordersWaitingForProfile,
} from './card-codes.service';
export { visitOrigin } from './visit-source';
export { recordPageEvent } from './visit-flusher';
