/** Answers of the store pages' calls (GET /api/shopify/status, POST /api/shopify/test-connection). */

export interface StoreStatus {
  configured: boolean;
  apiVersion: string;
  storeDomain: string | null;
  settings: Array<{ name: string; present: boolean; required: boolean }>;
  referenceProducts: Array<{ title: string; price: string }>;
}

export interface StoreConnectionResult {
  ok: boolean;
  configured: boolean;
  apiVersion: string;
  message: string;
  durationMs: number;
  storeDomain?: string;
  shopName?: string;
  productCount?: number;
  products?: Array<{ title: string; price: string | null; variants: number }>;
}
