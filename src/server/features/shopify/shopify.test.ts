import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { defaultProducts, startShopifyStandin, type ShopifyStandin } from '#tests/helpers/shopify-standin';
import { priceOrder } from '#shared/catalogue';
import { orders, outbox } from '#server/db/schema/index';
import { createStorefrontClient, isStoreCheckoutUrl, StorefrontError, type StorefrontClient } from './storefront-client';
import { checkoutAttributes, runCheckoutFlow, storefrontFor } from './shopify.checkout';
import { mapUserErrorCode, USER_ERROR_CODE_MAP } from './user-errors';

let shop: ShopifyStandin;
let client: StorefrontClient;
beforeAll(async () => {
  shop = await startShopifyStandin();
  client = createStorefrontClient({ storeDomain: shop.storeDomain, token: shop.token, apiUrl: shop.url });
});
afterAll(async () => {
  await shop.close();
});
beforeEach(() => {
  shop.requests.length = 0;
  shop.products = defaultProducts();
  shop.checkoutHost = null;
});

const [V1, V2, V3] = ['gid://shopify/ProductVariant/2001', 'gid://shopify/ProductVariant/2002', 'gid://shopify/ProductVariant/2003'];

describe('Storefront client (against the local stand-in)', () => {
  it('posts to /api/2025-01/graphql.json with the spec headers', async () => {
    await client.shop();
    const r = shop.requests[0];
    expect(r.path).toBe('/api/2025-01/graphql.json');
    expect(r.headers['x-sdk-variant']).toBe('javascript');
    expect(r.headers['x-sdk-version']).toBe('3.0.6');
    expect(r.headers['x-shopify-storefront-access-token']).toBe(shop.token);
    expect(r.headers['accept-language']).toBe('*');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['accept']).toBe('application/json');
  });

  it('cart: create, query, attributes, note, buyer identity', async () => {
    const created = await client.createCart({ lines: [{ merchandiseId: V1, quantity: 2 }], attributes: [{ key: 'source', value: 'test' }] });
    expect(created.userErrors).toEqual([]);
    const id = created.cart.id;
    expect(created.cart.lines).toHaveLength(1);
    expect(created.cart.cost.subtotalAmount).toEqual({ amount: '179.98', currencyCode: 'USD' });
    expect(created.cart.checkoutUrl.startsWith(`https://${shop.storeDomain}/cart/c/`)).toBe(true);

    const attrs = await client.updateAttributes(id, [{ key: 'card_type', value: 'color' }]);
    expect(attrs.cart.attributes).toEqual([{ key: 'source', value: 'test' }, { key: 'card_type', value: 'color' }]);
    expect((await client.updateNote(id, 'Deliver to reception')).cart.note).toBe('Deliver to reception');
    const buyer = await client.updateBuyerIdentity(id, { email: 'buyer@example.com', countryCode: 'US' });
    expect(buyer.cart.buyerIdentity).toMatchObject({ email: 'buyer@example.com', countryCode: 'US' });

    const fetched = await client.fetchCart(id);
    expect(fetched).toMatchObject({ id, note: 'Deliver to reception' });
    expect(fetched!.lines[0]).toMatchObject({ quantity: 2, merchandise: { id: V1, product: { title: 'Standard Metal Cards' } } });
    expect(fetched!.deliveryGroups[0].cartLines.map((l) => l.id)).toEqual([fetched!.lines[0].id]);
    expect(await client.fetchCart('gid://shopify/Cart/missing')).toBeNull();
    // the documents ask for 250 lines and 10 delivery groups
    expect(shop.requests.find((r) => r.operation === 'cart')!.query).toMatch(/lines\(first: 250\)[\s\S]*/);
    expect(shop.requests.find((r) => r.operation === 'cart')!.query).toContain('deliveryGroups(first: 10)');
  });

  it('discount codes: adding fetches the existing codes first and appends', async () => {
    const { cart } = await client.createCart({ lines: [{ merchandiseId: V1, quantity: 1 }] });
    await client.addDiscountCodes(cart.id, ['TENOFF']);
    shop.requests.length = 0;
    const r = await client.addDiscountCodes(cart.id, ['WELCOME5', 'tenoff']);
    expect(shop.operations()).toEqual(['cart', 'cartDiscountCodesUpdate']);
    expect(shop.requests[1].variables.discountCodes).toEqual(['TENOFF', 'WELCOME5']);
    expect(r.cart.discountCodes).toEqual([
      { code: 'TENOFF', applicable: true },
      { code: 'WELCOME5', applicable: true },
    ]);
    expect(r.cart.cost.totalAmount.amount).toBe('76.49'); // 89.99 - 15%
    expect((await client.removeDiscountCodes(cart.id)).cart.discountCodes).toEqual([]);
  });

  it('gift card codes: add and remove', async () => {
    const { cart } = await client.createCart({ lines: [{ merchandiseId: V1, quantity: 1 }] });
    const added = await client.addGiftCardCodes(cart.id, ['GIFT50ABCD']);
    expect(added.cart.appliedGiftCards).toHaveLength(1);
    expect(added.cart.appliedGiftCards[0]).toMatchObject({ lastCharacters: 'ABCD', amountUsed: { amount: '50.00' } });
    expect(added.cart.cost.checkoutChargeAmount.amount).toBe('39.99');
    const removed = await client.removeGiftCards(cart.id, [added.cart.appliedGiftCards[0].id]);
    expect(removed.cart.appliedGiftCards).toEqual([]);
    const bad = await client.addGiftCardCodes(cart.id, ['NOPE']);
    expect(bad.userErrors).toEqual([{ field: ['giftCardCodes'], message: 'Gift card code NOPE is invalid.', code: 'INVALID' }]);
  });

  it('lines: add, update, remove; replace removes all, then adds', async () => {
    const { cart } = await client.createCart({});
    const a = await client.addLines(cart.id, [
      { merchandiseId: V1, quantity: 1 },
      { merchandiseId: V2, quantity: 1 },
    ]);
    expect(a.cart.lines.map((l) => l.merchandise.id)).toEqual([V1, V2]);
    const [l1, l2] = a.cart.lines;
    const u = await client.updateLines(cart.id, [{ id: l1.id, quantity: 3 }]);
    expect(u.cart.lines.find((l) => l.id === l1.id)!.quantity).toBe(3);
    const r = await client.removeLines(cart.id, [l2.id]);
    expect(r.cart.lines.map((l) => l.id)).toEqual([l1.id]);

    await client.addLines(cart.id, [{ merchandiseId: V2, quantity: 1 }]);
    shop.requests.length = 0;
    const replaced = await client.replaceLines(cart.id, [{ merchandiseId: V1, quantity: 5 }]);
    expect(shop.operations()).toEqual(['cart', 'cartLinesRemove', 'cartLinesAdd']);
    expect(shop.requests[1].variables.lineIds).toHaveLength(2);
    expect(replaced.cart.lines.map((l) => [l.merchandise.id, l.quantity])).toEqual([[V1, 5]]);
  });

  it('products (paged past 250) and collections', async () => {
    shop.products = Array.from({ length: 260 }, (_, i) => ({
      id: `gid://shopify/Product/${i}`,
      handle: `p-${i}`,
      title: `Product ${i}`,
      price: '1.00',
      variants: [{ id: `gid://shopify/ProductVariant/${i}`, title: 'Default Title' }],
    }));
    const all = await client.fetchAllProducts();
    expect(all).toHaveLength(260);
    expect(shop.operations()).toEqual(['products', 'products']);
    expect(all[259].variants[0].id).toBe('gid://shopify/ProductVariant/259');
    expect((await client.fetchProduct('gid://shopify/Product/7'))!.handle).toBe('p-7');
    expect((await client.fetchProductByHandle('p-8'))!.title).toBe('Product 8');
    expect(await client.fetchProduct('gid://shopify/Product/none')).toBeNull();
    const cols = await client.fetchAllCollections();
    expect(cols.map((c) => c.handle)).toEqual(['metal-cards']);
    const col = await client.fetchCollectionWithProducts(cols[0].id, 5);
    expect(col!.products).toHaveLength(5);
  });

  it('maps user-error and warning codes per the spec', async () => {
    const { cart } = await client.createCart({ lines: [{ merchandiseId: V1, quantity: 1 }] });
    const gone = await client.removeLines(cart.id, ['gid://shopify/CartLine/nope']);
    expect(gone.userErrors[0].code).toBe('LINE_ITEM_NOT_FOUND');
    const stock = await client.addLines(cart.id, [{ merchandiseId: V3, quantity: 1 }]);
    expect(stock.warnings.map((w) => w.code)).toEqual(['NOT_ENOUGH_IN_STOCK']);
    const long = await client.updateNote(cart.id, 'x'.repeat(5001));
    expect(long.userErrors[0].code).toBe('TOO_LONG');

    const table: Record<string, string> = {
      ADDRESS_FIELD_CONTAINS_EMOJIS: 'NOT_SUPPORTED',
      ADDRESS_FIELD_CONTAINS_HTML_TAGS: 'NOT_SUPPORTED',
      ADDRESS_FIELD_CONTAINS_URL: 'NOT_SUPPORTED',
      ADDRESS_FIELD_DOES_NOT_MATCH_EXPECTED_PATTERN: 'NOT_SUPPORTED',
      PAYMENT_METHOD_NOT_SUPPORTED: 'NOT_SUPPORTED',
      ZIP_CODE_NOT_SUPPORTED: 'NOT_SUPPORTED',
      PAYMENTS_GIFT_CARDS_UNAVAILABLE: 'NOT_SUPPORTED',
      ADDRESS_FIELD_IS_REQUIRED: 'PRESENT',
      MISSING_CUSTOMER_ACCESS_TOKEN: 'PRESENT',
      MISSING_DISCOUNT_CODE: 'PRESENT',
      MISSING_NOTE: 'PRESENT',
      ADDRESS_FIELD_IS_TOO_LONG: 'TOO_LONG',
      NOTE_TOO_LONG: 'TOO_LONG',
      INVALID_COMPANY_LOCATION: 'INVALID',
      INVALID_DELIVERY_GROUP: 'INVALID',
      INVALID_DELIVERY_OPTION: 'INVALID',
      INVALID_INCREMENT: 'INVALID',
      INVALID_METAFIELDS: 'INVALID',
      INVALID_PAYMENT: 'INVALID',
      INVALID_PAYMENT_EMPTY_CART: 'INVALID',
      VALIDATION_CUSTOM: 'INVALID',
      UNSPECIFIED_ADDRESS_ERROR: 'INVALID',
      INVALID_MERCHANDISE_LINE: 'LINE_ITEM_NOT_FOUND',
      INVALID_ZIP_CODE_FOR_COUNTRY: 'INVALID_FOR_COUNTRY',
      INVALID_ZIP_CODE_FOR_PROVINCE: 'INVALID_FOR_COUNTRY_AND_PROVINCE',
      LESS_THAN: 'LESS_THAN',
      MINIMUM_NOT_MET: 'GREATER_THAN_OR_EQUAL_TO',
      MAXIMUM_EXCEEDED: 'NOT_ENOUGH_IN_STOCK',
      MERCHANDISE_NOT_ENOUGH_STOCK: 'NOT_ENOUGH_IN_STOCK',
      MERCHANDISE_OUT_OF_STOCK: 'NOT_ENOUGH_IN_STOCK',
      PROVINCE_NOT_FOUND: 'INVALID_PROVINCE_IN_COUNTRY',
    };
    expect(USER_ERROR_CODE_MAP).toEqual(table);
    expect(mapUserErrorCode('SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });

  it('rejects a failed mutation: top-level errors, then mapped user errors/warnings, else the unknown-error message', async () => {
    const { cart } = await client.createCart({});
    shop.failNext('cartLinesAdd', { kind: 'graphql-errors', errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] });
    const top = await client.addLines(cart.id, [{ merchandiseId: V1 }]).catch((e) => e);
    expect(top).toBeInstanceOf(StorefrontError);
    expect(top).toMatchObject({ kind: 'graphql', message: 'Throttled' });
    expect(top.errors[0]).toMatchObject({ message: 'Throttled', extensions: { code: 'THROTTLED' } });

    shop.failNext('cartLinesAdd', {
      kind: 'user-errors',
      userErrors: [{ field: ['lines'], message: 'Not enough', code: 'MAXIMUM_EXCEEDED' }],
      warnings: [{ code: 'PAYMENTS_GIFT_CARDS_UNAVAILABLE', message: 'Gift cards are not available' }],
    });
    const user = await client.addLines(cart.id, [{ merchandiseId: V1 }]).catch((e) => e);
    expect(user).toMatchObject({ kind: 'user' });
    expect(user.errors).toEqual([
      { field: ['lines'], message: 'Not enough', code: 'NOT_ENOUGH_IN_STOCK' },
      { message: 'Gift cards are not available', code: 'NOT_SUPPORTED' },
    ]);

    shop.failNext('cartLinesAdd', { kind: 'no-cart' });
    const unknown = await client.addLines(cart.id, [{ merchandiseId: V1 }]).catch((e) => e);
    expect(unknown).toMatchObject({ kind: 'unknown', message: 'The cartLinesAdd mutation failed due to an unknown error.' });

    // a cart that does not exist: the API answers no cart and a user error
    const missing = await client.updateNote('gid://shopify/Cart/none', 'x').catch((e) => e);
    expect(missing).toMatchObject({ kind: 'user' });
  });

  it('HTTP failures and a wrong token reject with a network error', async () => {
    shop.failNext('shop', { kind: 'http', status: 503 });
    await expect(client.shop()).rejects.toMatchObject({ kind: 'network' });
    const wrong = createStorefrontClient({ storeDomain: shop.storeDomain, token: 'wrong', apiUrl: shop.url });
    await expect(wrong.shop()).rejects.toMatchObject({ kind: 'network' });
  });

  it('only follows checkout URLs on the configured store host', () => {
    const d = 'metal-cards-test.myshopify.com';
    expect(isStoreCheckoutUrl(`https://${d}/cart/c/abc`, d)).toBe(true);
    for (const bad of [
      `http://${d}/cart/c/abc`,
      `https://${d}.evil.example/cart`,
      `https://evil.example/${d}`,
      `https://user:pw@${d}/x`,
      `https://${d}:8443/x`,
      'javascript:alert(1)',
      '',
      null,
    ]) {
      expect(isStoreCheckoutUrl(bad, d), String(bad)).toBe(false);
    }
  });
});

describe('product-ordering flow', () => {
  const order = () => {
    const input = orderInput() as any;
    return { ...input, quote: priceOrder(input) };
  };

  it('creates a cart, fetches all products, adds the first product first variant once with the order attributes', async () => {
    const o = order();
    const { checkoutUrl } = await runCheckoutFlow(client, o);
    expect(shop.operations()).toEqual(['cartCreate', 'products', 'cartLinesAdd']);
    const add = shop.requests[2].variables;
    expect(add.lines).toEqual([{ merchandiseId: V1, quantity: 1, attributes: checkoutAttributes(o) }]);
    const attrs = Object.fromEntries(add.lines[0].attributes.map((a: any) => [a.key, a.value]));
    expect(attrs).toEqual({
      card_type: 'color',
      card_style: 'Brushed',
      quantity: '250',
      delivery_option: 'rush-24h',
      customer_name: 'Grace Hopper',
      email: o.email,
      phone: '+1 212 555 0100',
      position: 'Rear Admiral',
      company_name: 'Navy Labs',
      special_requests: 'Gold edges please',
      calculated_total: '1280.00',
      delivery_fee: '30.00',
    });
    expect(isStoreCheckoutUrl(checkoutUrl, shop.storeDomain)).toBe(true);
  });

  it("rejects with 'No products found in Shopify store. Please add a product first.'", async () => {
    shop.products = [];
    await expect(runCheckoutFlow(client, order())).rejects.toThrow('No products found in Shopify store. Please add a product first.');
  });

  it('refuses a checkout URL on another host', async () => {
    shop.checkoutHost = 'evil.example';
    await expect(runCheckoutFlow(client, order())).rejects.toThrow(/outside the store's host/);
  });

  it("without settings logs 'Shopify client not initialized' once", () => {
    const warn = vi.fn();
    const ctx = { config: {}, log: { warn, debug: vi.fn() } } as any;
    expect(storefrontFor(ctx)).toBeNull();
    expect(storefrontFor(ctx)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('Shopify client not initialized');
  });
});

describe('orders with the store configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { SHOPIFY_STORE_DOMAIN: shop.storeDomain, SHOPIFY_STOREFRONT_TOKEN: shop.token, SHOPIFY_API_URL: shop.url, PUBLIC_URL: 'https://cards.example.test', RATE_LIMITS: 'off' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (input: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/order', payload: input as object, headers: { 'idempotency-key': crypto.randomUUID() } });

  it('puts the checkout URL in the answer, the order and the e-mail', async () => {
    const input = orderInput();
    const res = await post(input);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(isStoreCheckoutUrl(body.checkoutUrl, shop.storeDomain)).toBe(true);
    expect(body.message).toMatch(/checkout link/);
    const [row] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, body.orderId));
    expect(row.checkoutUrl).toBe(body.checkoutUrl);
    const [mail] = await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, input.email));
    expect(mail.textBody).toContain(body.checkoutUrl);
    expect(mail.htmlBody).toContain('Complete checkout');
    expect(mail.textBody).toContain(body.statusUrl); // the order page is still linked
    const add = shop.requests.filter((r) => r.operation === 'cartLinesAdd').pop()!;
    expect(add.variables.lines[0].attributes).toContainEqual({ key: 'calculated_total', value: '1280.00' });
  });

  it('falls back to the order page when the store has no products, refuses, is down, or answers another host', async () => {
    const faults: Array<() => void> = [
      () => (shop.products = []),
      () => shop.failNext('cartCreate', { kind: 'graphql-errors', errors: [{ message: 'Internal error' }] }),
      () => shop.failNext('cartCreate', { kind: 'http', status: 502 }),
      () => (shop.checkoutHost = 'evil.example'),
    ];
    for (const fault of faults) {
      shop.products = defaultProducts();
      shop.checkoutHost = null;
      fault();
      const input = orderInput();
      const res = await post(input);
      expect(res.statusCode).toBe(201);
      expect(res.json().checkoutUrl).toBeNull();
      const [mail] = await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, input.email));
      expect(mail.textBody).toContain(res.json().statusUrl);
      expect(mail.textBody).not.toContain('evil.example');
    }
  });

  it('connection test and status: admins only, with the real result', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/shopify/test-connection' })).statusCode).toBe(401);
    const { agent: user } = await signedInAgent(t.app);
    expect((await user.post('/api/shopify/test-connection')).statusCode).toBe(403);
    expect((await user.get('/api/shopify/status')).statusCode).toBe(403);
    const { agent } = await adminAgent(t.app);
    const ok = await agent.post('/api/shopify/test-connection');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, configured: true, apiVersion: '2025-01', shopName: 'Metal Cards NYC (stand-in)', productCount: 3 });
    shop.products = [];
    const none = await agent.post('/api/shopify/test-connection');
    expect(none.json()).toMatchObject({ ok: true, productCount: 0, message: 'No products found in Shopify store. Please add a product first.' });
    shop.failNext('shop', { kind: 'http', status: 503 });
    expect((await agent.post('/api/shopify/test-connection')).json()).toMatchObject({ ok: false, configured: true });
    const status = (await agent.get('/api/shopify/status')).json();
    expect(status.configured).toBe(true);
    expect(status.settings).toEqual([
      { name: 'SHOPIFY_STORE_DOMAIN', present: true, required: true },
      { name: 'SHOPIFY_STOREFRONT_TOKEN', present: true, required: true },
      { name: 'SHOPIFY_API_URL', present: true, required: false },
      { name: 'SHOPIFY_WEBHOOK_SECRET', present: false, required: false },
    ]);
    expect(status.referenceProducts.map((p: any) => p.price)).toEqual(['89.99', '119.99', '149.99']);
    expect(JSON.stringify(status)).not.toContain(shop.token);
  });
});

describe('store not configured', () => {
  it('orders succeed with the order page; the connection test says the client is not initialized', async () => {
    const t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput() });
      expect(res.statusCode).toBe(201);
      expect(res.json().checkoutUrl).toBeNull();
      const { agent } = await adminAgent(t.app);
      const r = (await agent.post('/api/shopify/test-connection')).json();
      expect(r).toMatchObject({ ok: false, configured: false, message: 'Shopify client not initialized' });
      expect((await agent.get('/api/shopify/status')).json().configured).toBe(false);
    } finally {
      await t.close();
    }
  });
});
