import { formatUsd, type PriceQuote } from '#shared/catalogue';
import type { AppContext } from '#server/context';
import { createStorefrontClient, isStoreCheckoutUrl, MESSAGES, StorefrontError, type Attribute, type StorefrontClient } from './storefront-client';
import { ORDER_ID_ATTRIBUTE } from './store-webhooks';

/** The order fields the checkout carries (spec: "Order input for checkout"). */
export interface CheckoutOrderInput {
  cardType: string;
  cardStyle: string;
  quantity: number;
  deliveryOption: string;
  customerName: string;
  email: string;
  phone?: string;
  position?: string;
  companyName?: string;
  specialRequests?: string;
  quote: PriceQuote;
  /** our order's id: a cart attribute, so the store's order webhooks find the order (issue 35) */
  orderId?: number;
}

const clients = new WeakMap<AppContext, StorefrontClient | null>();

/** The store client of this app, or null (logged once) when the domain or token is not set. */
export function storefrontFor(ctx: AppContext): StorefrontClient | null {
  if (clients.has(ctx)) return clients.get(ctx)!;
  const { SHOPIFY_STORE_DOMAIN: domain, SHOPIFY_STOREFRONT_TOKEN: token, SHOPIFY_API_URL: apiUrl } = ctx.config;
  let client: StorefrontClient | null = null;
  if (domain && token) {
    client = createStorefrontClient({
      storeDomain: domain,
      token,
      apiUrl,
      logger: (msg, extra) => ctx.log.debug({ extra }, msg),
    });
  } else {
    ctx.log.warn(MESSAGES.notInitialized);
  }
  clients.set(ctx, client);
  return client;
}

const money = (cents: number) => (cents / 100).toFixed(2);

/** The line's custom attributes (spec: product-ordering flow). Empty values are sent as empty text. */
export function checkoutAttributes(o: CheckoutOrderInput): Attribute[] {
  return [
    { key: 'card_type', value: o.cardType },
    { key: 'card_style', value: o.cardStyle },
    { key: 'quantity', value: String(o.quantity) },
    { key: 'delivery_option', value: o.deliveryOption },
    { key: 'customer_name', value: o.customerName },
    { key: 'email', value: o.email },
    { key: 'phone', value: o.phone ?? '' },
    { key: 'position', value: o.position ?? '' },
    { key: 'company_name', value: o.companyName ?? '' },
    { key: 'special_requests', value: o.specialRequests ?? '' },
    { key: 'calculated_total', value: money(o.quote.totalCents) },
    { key: 'delivery_fee', value: money(o.quote.deliveryFeeCents) },
  ];
}

/**
 * The product-ordering flow: create a cart, fetch all products, add one line of quantity 1 on the
 * first product's first variant with the order's attributes; answers the checkout URL, which must
 * be on the configured store's host.
 */
export async function runCheckoutFlow(client: StorefrontClient, order: CheckoutOrderInput): Promise<{ cartId: string; checkoutUrl: string }> {
  // the cart's attributes become the store order's `note_attributes` (read by the order webhooks)
  const created = await client.createCart(order.orderId !== undefined ? { attributes: [{ key: ORDER_ID_ATTRIBUTE, value: String(order.orderId) }] } : {});
  const products = await client.fetchAllProducts();
  const variant = products[0]?.variants[0];
  if (!variant) throw new StorefrontError(MESSAGES.noProducts, 'user', [{ message: MESSAGES.noProducts }]);
  const { cart } = await client.addLines(created.cart.id, [{ merchandiseId: variant.id, quantity: 1, attributes: checkoutAttributes(order) }]);
  if (!isStoreCheckoutUrl(cart.checkoutUrl, client.storeDomain)) {
    throw new StorefrontError(`Refusing a checkout URL outside the store's host (${client.storeDomain})`, 'unknown');
  }
  return { cartId: cart.id, checkoutUrl: cart.checkoutUrl };
}

/**
 * Makes the online-store checkout for an order when the store is configured. Never fails the
 * order: without settings, or when the store refuses, the order uses its own status page (null).
 */
export async function createStoreCheckout(ctx: AppContext, order: CheckoutOrderInput): Promise<string | null> {
  const client = storefrontFor(ctx);
  if (!client) return null;
  try {
    const { checkoutUrl } = await runCheckoutFlow(client, order);
    return checkoutUrl;
  } catch (err: any) {
    ctx.log.warn({ err: err?.message, errors: err?.errors, total: formatUsd(order.quote.totalCents) }, 'store checkout failed; the order uses its own status page');
    return null;
  }
}
