// What sibling features may use of webhooks: recording an event in the transaction of its change.
export { cardOwner, orderEventData, recordEvent } from './events';
export { disableEndpointsOfUser } from './endpoint-writes';
export { checkWebhookUrl } from './webhook-address';
