import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Shopify Storefront API (version 2025-01) on 127.0.0.1: it speaks the
 * cart API (cart, cartCreate, cartAttributesUpdate, cartNoteUpdate, cartBuyerIdentityUpdate,
 * cartDiscountCodesUpdate, cartGiftCardCodesUpdate, cartGiftCardCodesRemove, cartLinesAdd,
 * cartLinesRemove, cartLinesUpdate), products, collections and shop, over
 * POST /api/2025-01/graphql.json with the storefront token header. Answers carry user errors and
 * warnings the way the real API does; faults (top-level errors, a mutation without a cart, HTTP
 * errors) can be injected per operation. Every request is recorded for assertions.
 *
 * Issue 35: it also plays the store's side of a checkout and its order webhooks. `completeCheckout`
 * turns a cart into a store order (the cart's attributes become the order's `note_attributes`, as
 * Shopify does), `orderWebhook`/`refundWebhook` build the payloads of `orders/paid`,
 * `orders/cancelled` and `refunds/create`, and `signedWebhook` makes the request Shopify sends: the
 * raw JSON body, `X-Shopify-Hmac-Sha256` (base64 HMAC-SHA256 of those bytes with the webhook
 * secret), `X-Shopify-Topic`, `X-Shopify-Webhook-Id`, `X-Shopify-Shop-Domain`,
 * `X-Shopify-API-Version`. `sendWebhook` posts it to a URL.
 */

export interface StandinProduct {
  id: string;
  handle: string;
  title: string;
  price: string;
  variants?: Array<{ id: string; title: string; price?: string; stock?: number }>;
}

export interface StandinRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  query: string;
  operation: string;
  variables: Record<string, any>;
}

type Fault =
  | { kind: 'graphql-errors'; errors: Array<{ message: string; extensions?: Record<string, unknown> }> }
  | { kind: 'user-errors'; userErrors?: Array<{ field?: string[] | null; message: string; code: string }>; warnings?: Array<{ code: string; message: string }> }
  | { kind: 'no-cart' }
  | { kind: 'http'; status: number; body?: string };

interface Line {
  id: string;
  merchandiseId: string;
  quantity: number;
  attributes: Array<{ key: string; value: string }>;
}
interface CartState {
  id: string;
  token: string;
  createdAt: string;
  updatedAt: string;
  note: string | null;
  attributes: Array<{ key: string; value: string }>;
  lines: Line[];
  discountCodes: string[];
  giftCards: Array<{ id: string; code: string; balance: number }>;
  buyerIdentity: Record<string, any>;
}

export interface ShopifyStandin {
  url: string;
  storeDomain: string;
  token: string;
  requests: StandinRequest[];
  products: StandinProduct[];
  carts: Map<string, CartState>;
  /** the next call of `operation` answers with this fault */
  failNext(operation: string, fault: Fault): void;
  /** checkout URLs point at this host instead of the store's (to test the host rule) */
  checkoutHost: string | null;
  operations(): string[];
  /** the secret the store signs its webhooks with (SHOPIFY_WEBHOOK_SECRET of the app under test) */
  webhookSecret: string;
  /** the store order a paid checkout of this cart makes (its id, name #1001..., total, tax, address) */
  completeCheckout(cartId: string, opts?: { taxCents?: number; gateway?: string; shippingAddress?: Record<string, string> | null; subtotalCents?: number }): StandinOrder;
  /** the JSON Shopify sends for an order topic (orders/paid, orders/cancelled) */
  orderWebhook(order: StandinOrder, opts?: { cancelled?: boolean }): Record<string, unknown>;
  /** the JSON Shopify sends for refunds/create: one successful refund transaction of `amountCents` */
  refundWebhook(order: StandinOrder, amountCents: number, opts?: { refundId?: string }): Record<string, unknown>;
  /** headers and raw body of one webhook delivery, signed as Shopify signs (or with `hmac` given, e.g. a forged one) */
  signedWebhook(topic: string, payload: unknown, opts?: { webhookId?: string; secret?: string; hmac?: string | null }): StandinWebhook;
  /** posts a signed webhook to `url` (a running server), answers its status and body */
  sendWebhook(url: string, topic: string, payload: unknown, opts?: { webhookId?: string; secret?: string; hmac?: string | null }): Promise<{ statusCode: number; body: string; webhookId: string }>;
  close(): Promise<void>;
}

export interface StandinOrder {
  id: number;
  name: string;
  cartId: string;
  totalCents: number;
  taxCents: number;
  currency: string;
  gateway: string;
  noteAttributes: Array<{ name: string; value: string }>;
  shippingAddress: Record<string, string> | null;
}

export interface StandinWebhook {
  webhookId: string;
  headers: Record<string, string>;
  body: Buffer;
}

const NOTE_MAX = 5000;
const DISCOUNTS: Record<string, number> = { TENOFF: 0.1, WELCOME5: 0.05 };
const GIFT_CARDS: Record<string, number> = { GIFT50ABCD: 50, GIFT20WXYZ: 20 };

const money = (n: number) => ({ amount: n.toFixed(2), currencyCode: 'USD' });

export function defaultProducts(): StandinProduct[] {
  return [
    { id: 'gid://shopify/Product/1001', handle: 'standard-metal-cards', title: 'Standard Metal Cards', price: '89.99', variants: [{ id: 'gid://shopify/ProductVariant/2001', title: 'Default Title', stock: 100 }] },
    { id: 'gid://shopify/Product/1002', handle: 'premium-metal-cards', title: 'Premium Metal Cards', price: '119.99', variants: [{ id: 'gid://shopify/ProductVariant/2002', title: 'Default Title', stock: 2 }] },
    { id: 'gid://shopify/Product/1003', handle: 'luxury-metal-cards', title: 'Luxury Metal Cards', price: '149.99', variants: [{ id: 'gid://shopify/ProductVariant/2003', title: 'Default Title', stock: 0 }] },
  ];
}

export async function startShopifyStandin(opts: { storeDomain?: string; token?: string; products?: StandinProduct[]; webhookSecret?: string } = {}): Promise<ShopifyStandin> {
  const storeDomain = opts.storeDomain ?? 'metal-cards-test.myshopify.com';
  const token = opts.token ?? 'standin-storefront-token';
  const requests: StandinRequest[] = [];
  const carts = new Map<string, CartState>();
  const faults = new Map<string, Fault>();
  let seq = 0;
  const nextId = (kind: string) => `gid://shopify/${kind}/${++seq}${crypto.randomBytes(3).toString('hex')}`;

  const state: ShopifyStandin = {
    url: '',
    storeDomain,
    token,
    requests,
    products: opts.products ?? defaultProducts(),
    carts,
    checkoutHost: null,
    failNext(operation, fault) {
      faults.set(operation, fault);
    },
    operations: () => requests.map((r) => r.operation),
    webhookSecret: opts.webhookSecret ?? 'standin-webhook-secret',
    completeCheckout(cartId, o = {}) {
      const c = carts.get(cartId);
      if (!c) throw new Error(`stand-in: no cart ${cartId}`);
      const cart = cartJson(c);
      const taxCents = o.taxCents ?? 0;
      const id = 5_000_000_000 + ++orderSeq;
      return {
        id,
        name: `#${1000 + orderSeq}`,
        cartId,
        // the cart's total, or (a store that prices the order's line itself) the subtotal given
        totalCents: (o.subtotalCents ?? Math.round(Number(cart.cost.totalAmount.amount) * 100)) + taxCents,
        taxCents,
        currency: 'USD',
        gateway: o.gateway ?? 'shopify_payments',
        noteAttributes: c.attributes.map((a) => ({ name: a.key, value: a.value })),
        shippingAddress:
          o.shippingAddress === undefined
            ? { first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace', address1: '1 Main St', address2: 'Suite 2', city: 'Brooklyn', province: 'New York', province_code: 'NY', zip: '11201', country: 'United States', country_code: 'US' }
            : o.shippingAddress,
      };
    },
    orderWebhook(order, o = {}) {
      const dollars = (cents: number) => (cents / 100).toFixed(2);
      return {
        id: order.id,
        admin_graphql_api_id: `gid://shopify/Order/${order.id}`,
        name: order.name,
        order_number: Number(order.name.slice(1)),
        email: 'buyer@example.com',
        created_at: new Date().toISOString(),
        currency: order.currency,
        presentment_currency: order.currency,
        financial_status: o.cancelled ? 'voided' : 'paid',
        total_price: dollars(order.totalCents),
        subtotal_price: dollars(order.totalCents - order.taxCents),
        total_tax: dollars(order.taxCents),
        current_total_tax: dollars(order.taxCents),
        taxes_included: false,
        payment_gateway_names: [order.gateway],
        note: null,
        note_attributes: order.noteAttributes,
        shipping_address: order.shippingAddress,
        billing_address: order.shippingAddress,
        cancelled_at: o.cancelled ? new Date().toISOString() : null,
        cancel_reason: o.cancelled ? 'customer' : null,
        line_items: [{ id: order.id + 1, title: 'Standard Metal Cards', quantity: 1, price: dollars(order.totalCents - order.taxCents), properties: [] }],
      };
    },
    refundWebhook(order, amountCents, o = {}) {
      const refundId = o.refundId ?? String(9_000_000_000 + ++refundSeq);
      return {
        id: Number(refundId),
        order_id: order.id,
        created_at: new Date().toISOString(),
        note: 'Refund',
        restock: false,
        refund_line_items: [],
        transactions: [
          { id: Number(refundId) + 1, order_id: order.id, kind: 'refund', gateway: order.gateway, status: 'success', amount: (amountCents / 100).toFixed(2), currency: order.currency },
        ],
      };
    },
    signedWebhook(topic, payload, o = {}) {
      const body = Buffer.from(JSON.stringify(payload));
      const webhookId = o.webhookId ?? crypto.randomUUID();
      const hmac = o.hmac === undefined ? crypto.createHmac('sha256', o.secret ?? state.webhookSecret).update(body).digest('base64') : o.hmac;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'x-shopify-topic': topic,
        'x-shopify-webhook-id': webhookId,
        'x-shopify-shop-domain': storeDomain,
        'x-shopify-api-version': '2025-01',
        'x-shopify-triggered-at': new Date().toISOString(),
        'user-agent': 'Shopify-Captain-Hook',
      };
      if (hmac !== null) headers['x-shopify-hmac-sha256'] = hmac;
      return { webhookId, headers, body };
    },
    async sendWebhook(url, topic, payload, o = {}) {
      const w = state.signedWebhook(topic, payload, o);
      const res = await fetch(url, { method: 'POST', headers: w.headers, body: new Uint8Array(w.body) });
      return { statusCode: res.status, body: await res.text(), webhookId: w.webhookId };
    },
    close: async () => {},
  };
  let orderSeq = 0;
  let refundSeq = 0;

  const variants = () =>
    state.products.flatMap((p) =>
      (p.variants ?? []).map((v) => ({ ...v, price: v.price ?? p.price, product: p })),
    );
  const findVariant = (id: string) => variants().find((v) => v.id === id);

  function variantJson(v: NonNullable<ReturnType<typeof findVariant>>) {
    return {
      __typename: 'ProductVariant',
      id: v.id,
      title: v.title,
      image: null,
      product: { id: v.product.id, handle: v.product.handle, title: v.product.title },
      weight: 0.1,
      availableForSale: (v.stock ?? 1) > 0,
      sku: null,
      selectedOptions: [{ name: 'Title', value: v.title }],
      compareAtPrice: null,
      price: money(Number(v.price)),
      unitPrice: null,
      unitPriceMeasurement: null,
    };
  }

  function cartJson(c: CartState) {
    const lines = c.lines.map((l) => {
      const v = findVariant(l.merchandiseId)!;
      const unit = Number(v.price);
      return {
        id: l.id,
        quantity: l.quantity,
        attributes: l.attributes,
        cost: { totalAmount: money(unit * l.quantity), subtotalAmount: money(unit * l.quantity), amountPerQuantity: money(unit), compareAtAmountPerQuantity: null },
        discountAllocations: [],
        merchandise: variantJson(v),
      };
    });
    const subtotal = lines.reduce((s, l) => s + Number(l.cost.subtotalAmount.amount), 0);
    const rate = c.discountCodes.reduce((r, code) => r + (DISCOUNTS[code.toUpperCase()] ?? 0), 0);
    const discount = Math.round(subtotal * rate * 100) / 100;
    let due = subtotal - discount;
    const applied = c.giftCards.map((g) => {
      const used = Math.min(g.balance, due);
      due -= used;
      return { id: g.id, lastCharacters: g.code.slice(-4), amountUsed: money(used), balance: money(g.balance - used), presentmentAmountUsed: money(used) };
    });
    const host = state.checkoutHost ?? storeDomain;
    return {
      id: c.id,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      checkoutUrl: `https://${host}/cart/c/${c.token}?key=${crypto.createHash('sha1').update(c.id).digest('hex').slice(0, 16)}`,
      note: c.note,
      attributes: c.attributes,
      cost: {
        checkoutChargeAmount: money(due),
        totalAmount: money(due),
        subtotalAmount: money(subtotal),
        totalTaxAmount: null,
        totalDutyAmount: null,
      },
      discountCodes: c.discountCodes.map((code) => ({ code, applicable: code.toUpperCase() in DISCOUNTS })),
      discountAllocations: discount ? [{ __typename: 'CartCodeDiscountAllocation', discountedAmount: money(discount), code: c.discountCodes[0] }] : [],
      buyerIdentity: { countryCode: c.buyerIdentity.countryCode ?? null, email: c.buyerIdentity.email ?? null, phone: c.buyerIdentity.phone ?? null, customer: null, deliveryAddressPreferences: [], preferences: null },
      deliveryGroups: { edges: lines.length ? [{ node: { id: `${c.id}/dg/1`, deliveryAddress: null, deliveryOptions: [], selectedDeliveryOption: null, cartLines: { edges: lines.map((l) => ({ node: { id: l.id } })) } } }] : [] },
      appliedGiftCards: applied,
      lines: { edges: lines.map((node) => ({ node })) },
    };
  }

  function productJson(p: StandinProduct) {
    return {
      id: p.id,
      handle: p.handle,
      title: p.title,
      description: `${p.title} (reference price ${p.price})`,
      vendor: 'Metal Cards NYC',
      productType: 'Business cards',
      availableForSale: true,
      images: { edges: [] },
      options: [{ id: `${p.id}/o`, name: 'Title', optionValues: [{ name: 'Default Title' }] }],
      variants: {
        edges: (p.variants ?? []).map((v) => ({
          node: { id: v.id, title: v.title, sku: null, availableForSale: (v.stock ?? 1) > 0, price: money(Number(v.price ?? p.price)), compareAtPrice: null, selectedOptions: [{ name: 'Title', value: v.title }], image: null },
        })),
      },
    };
  }

  function page<T>(list: T[], first: number, after: string | null | undefined) {
    const start = after ? Number(Buffer.from(after, 'base64').toString()) : 0;
    const slice = list.slice(start, start + first);
    const end = start + slice.length;
    return { slice, pageInfo: { hasNextPage: end < list.length, endCursor: Buffer.from(String(end)).toString('base64') } };
  }

  function stockWarnings(c: CartState) {
    const warnings: Array<{ code: string; message: string; target: string }> = [];
    for (const l of c.lines) {
      const v = findVariant(l.merchandiseId)!;
      if (v.stock === undefined) continue;
      if (v.stock === 0) warnings.push({ code: 'MERCHANDISE_OUT_OF_STOCK', message: `${v.product.title} is out of stock.`, target: l.id });
      else if (l.quantity > v.stock) warnings.push({ code: 'MERCHANDISE_NOT_ENOUGH_STOCK', message: `Only ${v.stock} of ${v.product.title} available.`, target: l.id });
    }
    return warnings;
  }

  type Result = { data?: any; errors?: any[] };

  function mutationAnswer(name: string, cart: CartState | null, userErrors: any[] = [], warnings: any[] = []): Result {
    if (cart) cart.updatedAt = new Date().toISOString();
    return { data: { [name]: { cart: cart ? cartJson(cart) : null, userErrors, warnings } } };
  }

  function addLines(c: CartState, lines: any[], path: string): any[] {
    const errors: any[] = [];
    lines.forEach((input, i) => {
      const v = findVariant(String(input?.merchandiseId ?? ''));
      if (!v) {
        errors.push({ field: [path, String(i), 'merchandiseId'], message: `The merchandise with id ${input?.merchandiseId} does not exist.`, code: 'INVALID' });
        return;
      }
      const quantity = input.quantity ?? 1;
      if (!Number.isInteger(quantity) || quantity < 1) {
        errors.push({ field: [path, String(i), 'quantity'], message: 'The quantity must be at least 1.', code: 'LESS_THAN' });
        return;
      }
      c.lines.push({ id: nextId('CartLine'), merchandiseId: v.id, quantity, attributes: input.attributes ?? [] });
    });
    return errors;
  }

  function resolve(operation: string, v: Record<string, any>): Result {
    const cart = (id: unknown) => carts.get(String(id)) ?? null;
    const missingCart = (name: string, id: unknown): Result =>
      mutationAnswer(name, null, [{ field: ['cartId'], message: `The specified cart does not exist: ${id}`, code: 'INVALID' }]);
    switch (operation) {
      case 'shop':
        return { data: { shop: { name: 'Metal Cards NYC (stand-in)', primaryDomain: { host: storeDomain, url: `https://${storeDomain}` } } } };
      case 'cart': {
        const c = cart(v.id);
        return { data: { cart: c ? cartJson(c) : null } };
      }
      case 'products': {
        const { slice, pageInfo } = page(state.products, Math.min(250, v.first ?? 250), v.after);
        return { data: { products: { pageInfo, edges: slice.map((p) => ({ node: productJson(p) })) } } };
      }
      case 'product': {
        const p = state.products.find((x) => x.id === v.id || x.handle === v.handle);
        return { data: { product: p ? productJson(p) : null } };
      }
      case 'collections': {
        const all = [{ id: 'gid://shopify/Collection/1', handle: 'metal-cards', title: 'Metal Cards', description: 'All metal cards', image: null }];
        const { slice, pageInfo } = page(all, Math.min(250, v.first ?? 250), v.after);
        return { data: { collections: { pageInfo, edges: slice.map((node) => ({ node })) } } };
      }
      case 'collection': {
        if (v.id !== 'gid://shopify/Collection/1') return { data: { collection: null } };
        return {
          data: {
            collection: {
              id: v.id,
              handle: 'metal-cards',
              title: 'Metal Cards',
              description: 'All metal cards',
              image: null,
              products: { edges: state.products.slice(0, v.first ?? 250).map((p) => ({ node: productJson(p) })) },
            },
          },
        };
      }
      case 'cartCreate': {
        const input = v.input ?? {};
        const now = new Date().toISOString();
        const c: CartState = {
          id: `gid://shopify/Cart/${crypto.randomBytes(12).toString('hex')}`,
          token: crypto.randomBytes(12).toString('hex'),
          createdAt: now,
          updatedAt: now,
          note: input.note ?? null,
          attributes: input.attributes ?? [],
          lines: [],
          discountCodes: input.discountCodes ?? [],
          giftCards: [],
          buyerIdentity: input.buyerIdentity ?? {},
        };
        const errors = addLines(c, input.lines ?? [], 'input.lines');
        if (errors.length) return mutationAnswer('cartCreate', null, errors);
        carts.set(c.id, c);
        return mutationAnswer('cartCreate', c, [], stockWarnings(c));
      }
      case 'cartAttributesUpdate': {
        const c = cart(v.cartId);
        if (!c) return missingCart(operation, v.cartId);
        for (const a of v.attributes ?? []) {
          const i = c.attributes.findIndex((x) => x.key === a.key);
          if (i >= 0) c.attributes[i] = a;
          else c.attributes.push(a);
        }
        return mutationAnswer(operation, c);
      }
      case 'cartNoteUpdate': {
        const c = cart(v.cartId);
        if (!c) return missingCart(operation, v.cartId);
        if (typeof v.note !== 'string') return mutationAnswer(operation, c, [{ field: ['note'], message: 'Note is missing.', code: 'MISSING_NOTE' }]);
        if (v.note.length > NOTE_MAX) return mutationAnswer(operation, c, [{ field: ['note'], message: 'Note is too long.', code: 'NOTE_TOO_LONG' }]);
        c.note = v.note;
        return mutationAnswer(operation, c);
      }
      case 'cartBuyerIdentityUpdate': {
        const c = cart(v.cartId);
        if (!c) return missingCart(operation, v.cartId);
        const b = v.buyerIdentity ?? {};
        if (b.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(b.email))) {
          return mutationAnswer(operation, c, [{ field: ['buyerIdentity', 'email'], message: 'Email is invalid', code: 'INVALID' }]);
        }
        c.buyerIdentity = { ...c.buyerIdentity, ...b };
        return mutationAnswer(operation, c);
      }
      case 'cartDiscountCodesUpdate': {
        const c = cart(v.cartId);
        if (!c) return missingCart(operation, v.cartId);
        c.discountCodes = [...(v.discountCodes ?? [])];
        return mutationAnswer(operation, c);
      }
      case 'cartGiftCardCodesUpdate': {
        const c = cart(v.cartId);
        if (!c) return missingCart(operation, v.cartId);
        const errors: any[] = [];
        for (const code of v.giftCardCodes ?? []) {
          const balance = GIFT_CARDS[String(code).toUpperCase()];
          if (balance === undefined) errors.push({ field: ['giftCardCodes'], message: `Gift card code ${code} is invalid.`, code: 'INVALID' });
          else if (!c.giftCards.some((g) => g.code === code)) c.giftCards.push({ id: nextId('AppliedGiftCard'), code, balance });
        }
        return mutationAnswer(operation, c, errors);
      }
      case 'cartGiftCardCodesRemove': {
        const c = cart(v.cartId);
        if (!c) return missingCart(operation, v.cartId);
        c.giftCards = c.giftCards.filter((g) => !(v.appliedGiftCardIds ?? []).includes(g.id));
        return mutationAnswer(operation, c);
      }
      case 'cartLinesAdd': {
        const c = cart(v.cartId);
        if (!c) return missingCart(operation, v.cartId);
        const errors = addLines(c, v.lines ?? [], 'lines');
        return mutationAnswer(operation, c, errors, stockWarnings(c));
      }
      case 'cartLinesRemove': {
        const c = cart(v.cartId);
        if (!c) return missingCart(operation, v.cartId);
        const errors: any[] = [];
        for (const id of v.lineIds ?? []) {
          if (!c.lines.some((l) => l.id === id)) errors.push({ field: ['lineIds'], message: `The merchandise line with id ${id} does not exist.`, code: 'INVALID_MERCHANDISE_LINE' });
        }
        if (!errors.length) c.lines = c.lines.filter((l) => !(v.lineIds ?? []).includes(l.id));
        return mutationAnswer(operation, c, errors);
      }
      case 'cartLinesUpdate': {
        const c = cart(v.cartId);
        if (!c) return missingCart(operation, v.cartId);
        const errors: any[] = [];
        for (const [i, u] of (v.lines ?? []).entries()) {
          const line = c.lines.find((l) => l.id === u.id);
          if (!line) {
            errors.push({ field: ['lines', String(i), 'id'], message: `The merchandise line with id ${u.id} does not exist.`, code: 'INVALID_MERCHANDISE_LINE' });
            continue;
          }
          if (u.quantity !== undefined) line.quantity = u.quantity;
          if (u.attributes !== undefined) line.attributes = u.attributes;
          if (u.merchandiseId !== undefined) line.merchandiseId = u.merchandiseId;
        }
        c.lines = c.lines.filter((l) => l.quantity > 0);
        return mutationAnswer(operation, c, errors, stockWarnings(c));
      }
      default:
        return { errors: [{ message: `Field '${operation}' doesn't exist on type 'QueryRoot'`, extensions: { code: 'undefinedField' } }] };
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/api/2025-01/graphql.json') return send(404, { errors: [{ message: 'Not Found' }] });
      if (req.headers['x-shopify-storefront-access-token'] !== token) {
        return send(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
      }
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { errors: [{ message: 'Parse error: invalid JSON' }] });
      }
      const query = String(body?.query ?? '');
      const m = /^\s*(?:query|mutation)\b[^{]*\{\s*([A-Za-z_]\w*)/.exec(query);
      const operation = m?.[1] ?? '';
      const variables = body?.variables ?? {};
      requests.push({ path: req.url, headers: req.headers, query, operation, variables });
      if (!operation) return send(200, { errors: [{ message: 'syntax error, unexpected end of file' }] });
      const fault = faults.get(operation);
      if (fault) {
        faults.delete(operation);
        if (fault.kind === 'http') return send(fault.status, fault.body ?? { errors: [{ message: 'Service unavailable' }] });
        if (fault.kind === 'graphql-errors') return send(200, { data: { [operation]: null }, errors: fault.errors });
        if (fault.kind === 'no-cart') return send(200, { data: { [operation]: { cart: null, userErrors: [], warnings: [] } } });
        return send(200, { data: { [operation]: { cart: null, userErrors: fault.userErrors ?? [], warnings: fault.warnings ?? [] } } });
      }
      return send(200, resolve(operation, variables));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}
