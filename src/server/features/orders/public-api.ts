/** What other features may use of orders (docs/architecture.md, "Walls"). */
export { changeOrderStatus, createOrder, type StatusActor } from './orders.service';
export { designReviewedEmail } from './order-emails';
export { attachOrdersByVerifiedEmail } from './order-claim.service';
export { recordDesignEvent } from './order-view';
export { notifyStaff } from './staff-notices';
