import type { FastifyInstance } from 'fastify';
import { STORE_REFERENCE_PRODUCTS } from '#shared/catalogue';
import { StoreConnectionTestResponse, StoreStatusGetResponse, type StoreConnectionResult, type StoreStatus } from '#shared/schemas/shopify';
import type { ZodTypeProvider } from '#server/http/validation';
import { storefrontFor } from './shopify.checkout';
import { MESSAGES, STOREFRONT_API_VERSION, StorefrontError } from './storefront-client';

/** Store pages' calls (staff only: they show the shop's set-up and make calls to the store). */
export async function shopifyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/shopify/status', { config: { access: 'admin' }, schema: { response: { 200: StoreStatusGetResponse } } }, async (): Promise<StoreStatus> => {
    const c = app.ctx.config;
    return {
      configured: !!(c.SHOPIFY_STORE_DOMAIN && c.SHOPIFY_STOREFRONT_TOKEN),
      apiVersion: STOREFRONT_API_VERSION,
      storeDomain: c.SHOPIFY_STORE_DOMAIN ?? null,
      settings: [
        { name: 'SHOPIFY_STORE_DOMAIN', present: !!c.SHOPIFY_STORE_DOMAIN, required: true },
        { name: 'SHOPIFY_STOREFRONT_TOKEN', present: !!c.SHOPIFY_STOREFRONT_TOKEN, required: true },
        { name: 'SHOPIFY_API_URL', present: !!c.SHOPIFY_API_URL, required: false },
      ],
      referenceProducts: STORE_REFERENCE_PRODUCTS.map((p) => ({ ...p })),
    };
  });

  r.post('/api/shopify/test-connection', { config: { access: 'admin' }, schema: { response: { 200: StoreConnectionTestResponse } } }, async (): Promise<StoreConnectionResult> => {
    const client = storefrontFor(app.ctx);
    const started = Date.now();
    if (!client) return { ok: false, configured: false, message: MESSAGES.notInitialized, apiVersion: STOREFRONT_API_VERSION, durationMs: 0 };
    try {
      const shop = await client.shop();
      const products = await client.fetchAllProducts();
      return {
        ok: true,
        configured: true,
        apiVersion: STOREFRONT_API_VERSION,
        shopName: shop.name,
        storeDomain: client.storeDomain,
        productCount: products.length,
        products: products.slice(0, 10).map((p) => ({ title: p.title, price: p.variants[0]?.price.amount ?? null, variants: p.variants.length })),
        message: products.length ? `Connected to ${shop.name}` : MESSAGES.noProducts,
        durationMs: Date.now() - started,
      };
    } catch (err) {
      const message = err instanceof StorefrontError ? err.message : MESSAGES.unknown;
      return { ok: false, configured: true, apiVersion: STOREFRONT_API_VERSION, storeDomain: client.storeDomain, message, durationMs: Date.now() - started };
    }
  });
}
