/** What other features may use of shopify (docs/architecture.md, "Walls"). */
export { createStoreCheckout } from './shopify.checkout';
export type { StoreEventOutcome, StoreOrderEvent, StoreTopic } from './store-webhooks';
