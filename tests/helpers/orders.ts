import crypto from 'node:crypto';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/** A valid flat order body with overrides (the "done when" order by default: 250 Color Metal, rush). */
export function orderInput(overrides: Record<string, unknown> = {}) {
  const u = crypto.randomBytes(4).toString('hex');
  return {
    customerName: 'Grace Hopper',
    email: `grace_${u}@example.com`,
    phone: '+1 212 555 0100',
    companyName: 'Navy Labs',
    position: 'Rear Admiral',
    quantity: 250,
    cardType: 'color',
    cardStyle: 'Brushed',
    deliveryOption: 'rush-24h',
    specialRequests: 'Gold edges please',
    shippingAddress: shippingAddressInput(),
    ...overrides,
  };
}

/** A valid US delivery address (issue 35: every order but pickup carries one). */
export function shippingAddressInput(overrides: Record<string, unknown> = {}) {
  return { name: 'Grace Hopper', line1: '1 Navy Yard Way', line2: 'Suite 4', city: 'Brooklyn', state: 'NY', postalCode: '11205', country: 'US', ...overrides };
}

/** A multipart/form-data body with one file (and optional text fields) for app.inject. */
export function multipartBody(field: string, file: { name: string; type: string; data: Buffer }, fields: Record<string, string> = {}) {
  const boundary = `----mc${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function pngImage(width = 64, height = 40, color = '#d4af37'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}

export async function uploadArtworkFile(app: FastifyInstance, file: { name: string; type: string; data: Buffer }, remoteAddress?: string) {
  const body = multipartBody('artwork', file);
  return app.inject({ method: 'POST', url: '/api/upload/artwork', payload: body.payload, headers: body.headers, ...(remoteAddress ? { remoteAddress } : {}) });
}

export async function countRows(app: FastifyInstance, table: 'orders' | 'outbox' | 'order_status_history' | 'files', where = sql`true`): Promise<number> {
  const r = await app.ctx.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`);
  return Number((r as any).rows[0].n);
}
