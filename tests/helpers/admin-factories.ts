import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { priceOrder, type CardTypeId, type DeliveryOptionId } from '#shared/catalogue';
import { cards, orders, profiles, users } from '#server/db/schema/index';

/** Test data for the staff area, written straight into the tables (no other feature's API needed). */

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}${crypto.randomBytes(2).toString('hex')}`;

export type OrderRow = typeof orders.$inferSelect;

export interface OrderOverrides {
  customerName?: string;
  email?: string;
  phone?: string | null;
  companyName?: string | null;
  position?: string | null;
  address?: string | null;
  quantity?: number;
  cardType?: CardTypeId;
  cardStyle?: string;
  deliveryOption?: DeliveryOptionId;
  specialRequests?: string | null;
  status?: string;
  createdAt?: Date;
  userId?: string | null;
  cardId?: number | null;
  artworkUrl?: string | null;
  templateId?: number | null;
  source?: string;
}

/** One order priced by the catalogue (snapshot included), like the order form stores it. */
export async function insertOrder(app: FastifyInstance, o: OrderOverrides = {}): Promise<OrderRow> {
  const u = uniq();
  const quote = priceOrder({ cardType: o.cardType ?? 'standard', deliveryOption: o.deliveryOption ?? 'standard', quantity: o.quantity ?? 100 });
  const [row] = await app.ctx.db
    .insert(orders)
    .values({
      customerName: o.customerName ?? `Customer ${u}`,
      email: o.email ?? `buyer_${u}@example.com`,
      phone: o.phone === undefined ? '+1 212 555 0100' : o.phone,
      companyName: o.companyName === undefined ? 'Acme Inc' : o.companyName,
      position: o.position === undefined ? 'Director' : o.position,
      address: o.address === undefined ? '1 Broadway, New York, NY' : o.address,
      quantity: quote.quantity,
      cardType: quote.cardType,
      cardStyle: o.cardStyle ?? 'Matte',
      deliveryOption: quote.deliveryOption,
      specialRequests: o.specialRequests ?? null,
      unitPriceCents: quote.unitPriceCents,
      deliveryFeeCents: quote.deliveryFeeCents,
      totalCents: quote.totalCents,
      priceSnapshot: quote,
      statusToken: crypto.randomBytes(24).toString('base64url'),
      status: o.status ?? 'pending',
      userId: o.userId ?? null,
      cardId: o.cardId ?? null,
      artworkUrl: o.artworkUrl ?? null,
      templateId: o.templateId ?? null,
      source: o.source ?? 'order-form',
      ...(o.createdAt ? { createdAt: o.createdAt, updatedAt: o.createdAt } : {}),
    })
    .returning();
  return row;
}

/** Many orders at once with generate_series (for speed tests): names "Bulk Customer {i}", e-mails "bulk{i}@{domain}". */
export async function insertManyOrders(app: FastifyInstance, count: number, domain = 'bulk.example.org'): Promise<void> {
  await app.ctx.db.execute(sql`
    insert into orders (customer_name, email, quantity, card_type, card_style, delivery_option, unit_price_cents, delivery_fee_cents,
                        total_cents, price_snapshot, status_token, status, created_at)
    select 'Bulk Customer ' || md5(i::text), 'bulk' || i || '@' || ${domain}, 100, 'standard', 'Matte', 'standard', 400, 0, 40000, '{}'::jsonb,
           md5(random()::text || i::text) || md5(i::text), (array['pending','processing','shipped','completed','cancelled'])[1 + i % 5],
           now() - interval '1 day' - (i || ' seconds')::interval
    from generate_series(1, ${count}) i`);
  await app.ctx.db.execute(sql`analyze orders`);
}

export async function insertProfile(app: FastifyInstance, userId: string, o: { fullName?: string; email?: string; jobTitle?: string } = {}) {
  const id = crypto.randomBytes(6).toString('base64url').replace(/[-_]/g, 'x');
  const [row] = await app.ctx.db
    .insert(profiles)
    .values({ id, userId, fullName: o.fullName ?? 'Grace Hopper', email: o.email ?? null, jobTitle: o.jobTitle ?? 'Rear Admiral' })
    .returning();
  return row;
}

export interface DesignOverrides {
  userId?: string | null;
  profileId?: string | null;
  templateId?: number;
  status?: string;
  frontImageUrl?: string | null;
  backImageUrl?: string | null;
  qrCodeUrl?: string | null;
  orderId?: number | null;
  customerProfile?: Record<string, unknown>;
  submittedAt?: Date;
}

/** A submitted card design (status pending unless told). */
export async function insertDesign(app: FastifyInstance, o: DesignOverrides = {}) {
  const [row] = await app.ctx.db
    .insert(cards)
    .values({
      userId: o.userId ?? null,
      profileId: o.profileId ?? null,
      templateId: o.templateId ?? 17,
      cardType: 'standard',
      customerProfile: o.customerProfile ?? { fullName: 'Grace Hopper', email: 'grace@example.com', jobTitle: 'Rear Admiral' },
      frontImageUrl: o.frontImageUrl ?? null,
      backImageUrl: o.backImageUrl ?? null,
      qrCodeUrl: o.qrCodeUrl ?? null,
      status: o.status ?? 'pending',
      orderId: o.orderId ?? null,
      ...(o.submittedAt ? { submittedAt: o.submittedAt } : {}),
    })
    .returning();
  return row;
}

/** A design with its order, linked both ways (as the design flow makes them). */
export async function insertDesignWithOrder(app: FastifyInstance, o: DesignOverrides & { order?: OrderOverrides } = {}) {
  const order = await insertOrder(app, { source: 'design', templateId: o.templateId ?? 17, userId: o.userId ?? null, ...o.order });
  const design = await insertDesign(app, { ...o, orderId: order.id });
  await app.ctx.db.execute(sql`update orders set card_id = ${design.id} where id = ${order.id}`);
  return { order: { ...order, cardId: design.id }, design };
}

/**
 * A card back as the renderer makes it: a black 1050x600 card with a white-quiet-zone QR code of
 * `url` on the right, as PNG bytes.
 */
export async function renderCardBack(url: string, opts: { qrSize?: number } = {}): Promise<Buffer> {
  const QRCode = (await import('qrcode')).default;
  const sharp = (await import('sharp')).default;
  const size = opts.qrSize ?? 260;
  const qr = await QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'H', margin: 2, width: size });
  return sharp({ create: { width: 1050, height: 600, channels: 3, background: '#000000' } })
    .composite([{ input: qr, left: 1050 - size - 90, top: Math.round((600 - size) / 2) }])
    .png()
    .toBuffer();
}

export const pngDataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

export async function userIdByEmail(app: FastifyInstance, email: string): Promise<string> {
  const r = await app.ctx.db.execute(sql`select id from ${users} where lower(email) = lower(${email})`);
  return (r as any).rows[0].id;
}
