import { createStorefrontApiClient, type StorefrontApiClient } from '@shopify/storefront-api-client';
import {
  CART_MUTATIONS,
  CART_QUERY,
  COLLECTIONS_QUERY,
  COLLECTION_WITH_PRODUCTS_QUERY,
  PRODUCTS_QUERY,
  PRODUCT_BY_HANDLE_QUERY,
  PRODUCT_QUERY,
  SHOP_QUERY,
  type CartMutationName,
} from './storefront-queries';
import { mapUserErrors, type StoreUserError } from './user-errors';

/** Storefront API version of this build (spec: "Store: API version 2025-01"). */
export const STOREFRONT_API_VERSION = '2025-01';
/** SDK headers as the spec lists them (SDK version 3.0.6). */
export const SDK_VARIANT = 'javascript';
export const SDK_VERSION = '3.0.6';

export const MESSAGES = {
  notInitialized: 'Shopify client not initialized',
  unknown: 'an unknown error has occurred',
  noProducts: 'No products found in Shopify store. Please add a product first.',
} as const;

export interface Money {
  amount: string;
  currencyCode: string;
}
export interface Attribute {
  key: string;
  value: string;
}
export interface CartLine {
  id: string;
  quantity: number;
  attributes: Attribute[];
  cost: { totalAmount: Money; subtotalAmount: Money; amountPerQuantity: Money; compareAtAmountPerQuantity: Money | null };
  discountAllocations: Array<{ discountedAmount: Money }>;
  merchandise: {
    id: string;
    title: string;
    image: { id?: string; url: string; altText?: string | null } | null;
    product: { id: string; handle: string; title: string };
    weight?: number | null;
    availableForSale: boolean;
    sku?: string | null;
    selectedOptions: Array<{ name: string; value: string }>;
    compareAtPrice: Money | null;
    price: Money;
    unitPrice: Money | null;
    unitPriceMeasurement: Record<string, unknown> | null;
  };
}
export interface Cart {
  id: string;
  createdAt: string;
  updatedAt: string;
  checkoutUrl: string;
  note: string | null;
  attributes: Attribute[];
  cost: {
    checkoutChargeAmount: Money;
    totalAmount: Money;
    subtotalAmount: Money;
    totalTaxAmount: Money | null;
    totalDutyAmount: Money | null;
  };
  discountCodes: Array<{ code: string; applicable: boolean }>;
  discountAllocations: Array<{ discountedAmount: Money; code?: string; title?: string }>;
  buyerIdentity: Record<string, unknown>;
  deliveryGroups: Array<Record<string, unknown> & { cartLines: Array<{ id: string }> }>;
  appliedGiftCards: Array<{ id: string; lastCharacters: string; amountUsed: Money; balance: Money; presentmentAmountUsed: Money }>;
  lines: CartLine[];
}
export interface ProductVariant {
  id: string;
  title: string;
  sku?: string | null;
  availableForSale: boolean;
  price: Money;
  compareAtPrice: Money | null;
  selectedOptions: Array<{ name: string; value: string }>;
}
export interface Product {
  id: string;
  handle: string;
  title: string;
  description: string;
  availableForSale: boolean;
  images: Array<{ id?: string; url: string; altText?: string | null }>;
  variants: ProductVariant[];
}
export interface Collection {
  id: string;
  handle: string;
  title: string;
  description: string;
  products?: Product[];
}

export interface CartMutationResult {
  cart: Cart;
  userErrors: StoreUserError[];
  warnings: StoreUserError[];
}

export interface CartLineInput {
  merchandiseId: string;
  quantity?: number;
  attributes?: Attribute[];
  sellingPlanId?: string;
}
export interface CartLineUpdateInput {
  id: string;
  quantity?: number;
  merchandiseId?: string;
  attributes?: Attribute[];
}
export interface CartInput {
  lines?: CartLineInput[];
  attributes?: Attribute[];
  note?: string;
  discountCodes?: string[];
  giftCardCodes?: string[];
  buyerIdentity?: Record<string, unknown>;
}

/** A failed store call. `errors` holds the top-level GraphQL errors or the mapped user errors/warnings. */
export class StorefrontError extends Error {
  constructor(
    message: string,
    public readonly kind: 'graphql' | 'user' | 'unknown' | 'network',
    public readonly errors: Array<{ message: string; code?: string; field?: string[] | null }> = [],
  ) {
    super(message);
    this.name = 'StorefrontError';
  }
}

const nodes = <T>(conn: { edges?: Array<{ node: T }> } | null | undefined): T[] => (conn?.edges ?? []).map((e) => e.node);

function normalizeCart(raw: any): Cart {
  return {
    ...raw,
    attributes: raw.attributes ?? [],
    discountCodes: raw.discountCodes ?? [],
    discountAllocations: raw.discountAllocations ?? [],
    appliedGiftCards: raw.appliedGiftCards ?? [],
    lines: nodes<CartLine>(raw.lines),
    deliveryGroups: nodes<any>(raw.deliveryGroups).map((g) => ({ ...g, cartLines: nodes<{ id: string }>(g.cartLines) })),
  };
}

function normalizeProduct(raw: any): Product {
  return { ...raw, images: nodes<any>(raw.images), variants: nodes<ProductVariant>(raw.variants) };
}

export interface StorefrontSettings {
  storeDomain: string;
  token: string;
  /** origin to send the calls to instead of https://{storeDomain} (the local stand-in in tests) */
  apiUrl?: string;
  timeoutMs?: number;
  /** Accept-Language header (default any) */
  language?: string;
  logger?: (msg: string, extra?: unknown) => void;
}

export interface StorefrontClient {
  readonly storeDomain: string;
  readonly apiUrl: string;
  readonly headers: Record<string, string>;
  shop(): Promise<{ name: string; primaryDomain: { host: string; url: string } }>;
  fetchCart(id: string): Promise<Cart | null>;
  createCart(input?: CartInput): Promise<CartMutationResult>;
  updateAttributes(cartId: string, attributes: Attribute[]): Promise<CartMutationResult>;
  updateNote(cartId: string, note: string): Promise<CartMutationResult>;
  updateBuyerIdentity(cartId: string, buyerIdentity: Record<string, unknown>): Promise<CartMutationResult>;
  /** replaces the cart's discount codes */
  updateDiscountCodes(cartId: string, codes: string[]): Promise<CartMutationResult>;
  /** fetches the codes already on the cart and appends the new ones */
  addDiscountCodes(cartId: string, codes: string[]): Promise<CartMutationResult>;
  removeDiscountCodes(cartId: string): Promise<CartMutationResult>;
  addGiftCardCodes(cartId: string, codes: string[]): Promise<CartMutationResult>;
  removeGiftCards(cartId: string, appliedGiftCardIds: string[]): Promise<CartMutationResult>;
  addLines(cartId: string, lines: CartLineInput[]): Promise<CartMutationResult>;
  removeLines(cartId: string, lineIds: string[]): Promise<CartMutationResult>;
  updateLines(cartId: string, lines: CartLineUpdateInput[]): Promise<CartMutationResult>;
  /** removes every line, then adds the given ones */
  replaceLines(cartId: string, lines: CartLineInput[]): Promise<CartMutationResult>;
  fetchAllProducts(): Promise<Product[]>;
  fetchProduct(id: string): Promise<Product | null>;
  fetchProductByHandle(handle: string): Promise<Product | null>;
  fetchAllCollections(): Promise<Collection[]>;
  fetchCollectionWithProducts(id: string, first?: number): Promise<Collection | null>;
}

/** A Storefront API client over `@shopify/storefront-api-client`, with the cart operations of the spec. */
export function createStorefrontClient(s: StorefrontSettings): StorefrontClient {
  const domain = s.storeDomain.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  const apiOrigin = s.apiUrl ? new URL(s.apiUrl).origin : null;
  const timeoutMs = s.timeoutMs ?? 8000;
  const headers: Record<string, string> = {
    'X-SDK-Variant': SDK_VARIANT,
    'X-SDK-Version': SDK_VERSION,
    'Accept-Language': s.language ?? '*',
  };
  const client: StorefrontApiClient = createStorefrontApiClient({
    storeDomain: `https://${domain}`,
    apiVersion: STOREFRONT_API_VERSION,
    publicAccessToken: s.token,
    retries: 0,
    logger: (log) => s.logger?.(`storefront: ${log.type}`, log.content),
    // the package's own SDK headers win over per-request ones, so the spec's are set here
    customFetchApi: (url, init) => {
      const target = apiOrigin ? apiOrigin + new URL(url).pathname : url;
      const merged = { ...((init?.headers as Record<string, string>) ?? {}), ...headers };
      return fetch(target, { ...(init as RequestInit), headers: merged, signal: AbortSignal.timeout(timeoutMs) });
    },
  });

  async function request(query: string, variables?: Record<string, unknown>): Promise<any> {
    const res = await client.request(query, { variables });
    const gqlErrors = res.errors?.graphQLErrors;
    if (res.data === undefined || res.data === null) {
      if (gqlErrors?.length) throw new StorefrontError(gqlErrors.map((e) => e.message).join('; '), 'graphql', gqlErrors as any);
      throw new StorefrontError(res.errors?.message || MESSAGES.unknown, res.errors?.networkStatusCode ? 'network' : 'unknown', []);
    }
    return { data: res.data, errors: gqlErrors ?? [] };
  }

  async function query(q: string, variables?: Record<string, unknown>): Promise<any> {
    const { data, errors } = await request(q, variables);
    if (errors.length) throw new StorefrontError(errors.map((e: any) => e.message).join('; '), 'graphql', errors);
    return data;
  }

  /**
   * Mutation answers: with a cart, success (its user errors and warnings are returned, mapped);
   * without one, top-level errors reject with them, user errors or warnings reject with the mapped
   * list, and anything else rejects with "The {name} mutation failed due to an unknown error."
   */
  async function mutate(name: CartMutationName, variables: Record<string, unknown>): Promise<CartMutationResult> {
    const { data, errors } = (await request(CART_MUTATIONS[name], variables)) as { data: any; errors: any[] };
    const root = data?.[name];
    const userErrors = mapUserErrors(root?.userErrors);
    const warnings = mapUserErrors(root?.warnings);
    if (root?.cart?.id) return { cart: normalizeCart(root.cart), userErrors, warnings };
    if (errors.length) throw new StorefrontError(errors.map((e: any) => e.message).join('; '), 'graphql', errors);
    if (userErrors.length || warnings.length) {
      const list = [...userErrors, ...warnings];
      throw new StorefrontError(list.map((e) => e.message).join('; '), 'user', list);
    }
    throw new StorefrontError(`The ${name} mutation failed due to an unknown error.`, 'unknown');
  }

  async function fetchCart(id: string) {
    const data = await query(CART_QUERY, { id });
    return data.cart ? normalizeCart(data.cart) : null;
  }

  async function paged<T>(q: string, key: string, map: (n: any) => T, maxPages = 20): Promise<T[]> {
    const out: T[] = [];
    let after: string | null = null;
    for (let page = 0; page < maxPages; page++) {
      const data = await query(q, { first: 250, after });
      const conn = data[key];
      out.push(...nodes<any>(conn).map(map));
      if (!conn?.pageInfo?.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    return out;
  }

  const api: StorefrontClient = {
    storeDomain: domain,
    apiUrl: (apiOrigin ?? `https://${domain}`) + `/api/${STOREFRONT_API_VERSION}/graphql.json`,
    headers: { ...(client.config.headers as Record<string, string>), ...headers },
    async shop() {
      return (await query(SHOP_QUERY)).shop;
    },
    fetchCart,
    createCart: (input = {}) => mutate('cartCreate', { input }),
    updateAttributes: (cartId, attributes) => mutate('cartAttributesUpdate', { cartId, attributes }),
    updateNote: (cartId, note) => mutate('cartNoteUpdate', { cartId, note }),
    updateBuyerIdentity: (cartId, buyerIdentity) => mutate('cartBuyerIdentityUpdate', { cartId, buyerIdentity }),
    updateDiscountCodes: (cartId, discountCodes) => mutate('cartDiscountCodesUpdate', { cartId, discountCodes }),
    async addDiscountCodes(cartId, codes) {
      const cart = await fetchCart(cartId);
      if (!cart) throw new StorefrontError(`Cart not found: ${cartId}`, 'user', [{ message: 'Cart not found', code: 'INVALID' }]);
      const existing = cart.discountCodes.map((c) => c.code);
      const merged = [...existing, ...codes.filter((c) => !existing.some((e) => e.toLowerCase() === c.toLowerCase()))];
      return mutate('cartDiscountCodesUpdate', { cartId, discountCodes: merged });
    },
    removeDiscountCodes: (cartId) => mutate('cartDiscountCodesUpdate', { cartId, discountCodes: [] }),
    addGiftCardCodes: (cartId, giftCardCodes) => mutate('cartGiftCardCodesUpdate', { cartId, giftCardCodes }),
    removeGiftCards: (cartId, appliedGiftCardIds) => mutate('cartGiftCardCodesRemove', { cartId, appliedGiftCardIds }),
    addLines: (cartId, lines) => mutate('cartLinesAdd', { cartId, lines }),
    removeLines: (cartId, lineIds) => mutate('cartLinesRemove', { cartId, lineIds }),
    updateLines: (cartId, lines) => mutate('cartLinesUpdate', { cartId, lines }),
    async replaceLines(cartId, lines) {
      const cart = await fetchCart(cartId);
      if (!cart) throw new StorefrontError(`Cart not found: ${cartId}`, 'user', [{ message: 'Cart not found', code: 'INVALID' }]);
      if (cart.lines.length) await mutate('cartLinesRemove', { cartId, lineIds: cart.lines.map((l) => l.id) });
      return mutate('cartLinesAdd', { cartId, lines });
    },
    fetchAllProducts: () => paged(PRODUCTS_QUERY, 'products', normalizeProduct),
    async fetchProduct(id) {
      const data = await query(PRODUCT_QUERY, { id });
      return data.product ? normalizeProduct(data.product) : null;
    },
    async fetchProductByHandle(handle) {
      const data = await query(PRODUCT_BY_HANDLE_QUERY, { handle });
      return data.product ? normalizeProduct(data.product) : null;
    },
    fetchAllCollections: () => paged(COLLECTIONS_QUERY, 'collections', (n) => n as Collection),
    async fetchCollectionWithProducts(id, first = 250) {
      const data = await query(COLLECTION_WITH_PRODUCTS_QUERY, { id, first });
      const c = data.collection;
      return c ? { ...c, products: nodes<any>(c.products).map(normalizeProduct) } : null;
    },
  };
  return api;
}

/** Only checkout URLs on the configured store's host are followed (https, exact host). */
export function isStoreCheckoutUrl(url: string | null | undefined, storeDomain: string): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    const host = storeDomain.replace(/^https?:\/\//, '').replace(/\/.*$/, '').toLowerCase();
    return u.protocol === 'https:' && u.hostname.toLowerCase() === host && !u.username && !u.password && (u.port === '' || u.port === '443');
  } catch {
    return false;
  }
}
