/** What other features may use of orders (docs/architecture.md, "Walls"). */
export { changeOrderStatus, createOrder, teamKeyScope, userKeyScope, type StatusActor } from './orders.service';
export { attachOrdersByVerifiedEmail } from './order-claim.service';
export { markOrdersSeenByStaff, notifyStaff } from './staff-notices';
export { applyStoreOrderEvent, getOrderPayment, recordPayment, revenueFigures } from './payments.service';
export { linkOrderCard, orderForDesign, ownOrder } from './order-design';
export { orderWorkflow, proofStates } from './order-facts';
export { getOrderStatusView } from './orders.service';
// team members hear about their own cards when their team's order ships or is ready (issue 37)
export { onOrderStatusChanged, type OrderStatusListener } from './orders.service';
export { anonymizeOrdersOfUser } from './order-anonymize';
export { saveInternalNotes } from './order-notes';
export { orderContacts, provenOrderId } from './reads';
