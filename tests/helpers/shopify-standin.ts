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
  close(): Promise<void>;
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

export async function startShopifyStandin(opts: { storeDomain?: string; token?: string; products?: StandinProduct[] } = {}): Promise<ShopifyStandin> {
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
    close: async () => {},
  };

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
