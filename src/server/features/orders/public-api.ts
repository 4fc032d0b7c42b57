/** What other features may use of orders (docs/architecture.md, "Walls"). */
export { changeOrderStatus, createOrder } from './orders.service';
export { designReviewedEmail } from './order-emails';
