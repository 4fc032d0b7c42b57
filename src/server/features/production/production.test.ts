import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { Agent, createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { insertDesignWithOrder, insertOrder } from '#tests/helpers/admin-factories';
import { pngImage, uploadArtworkFile } from '#tests/helpers/orders';
import { decodeQrImage } from '#tests/helpers/qr-decode';
import { cardCodes, orderStatusHistory, orders, outbox } from '#server/db/schema/index';
import { ndefPayload } from './ndef';
import { workerPool } from '#server/infra/worker-pool';
import { TRACKING_MESSAGES } from '#shared/production/tracking';
import type { ProductionOrder, ProductionQueueResponse } from '#shared/schemas/production';
import type { OrderStatusView } from '#shared/schemas/orders';
import { readyForProduction } from '#tests/helpers/order-readiness';

const BASE = 'http://cards.test';
let t: TestApp;
let admin: Agent;
let user: Agent;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-production-'));

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: BASE } });
  admin = (await adminAgent(t.app)).agent;
  user = (await signedInAgent(t.app)).agent;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const queue = async (query = '') => {
  const res = await admin.get(`/api/admin/production${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as ProductionQueueResponse;
};
const addCode = (orderId: number, code: string) => t.app.ctx.db.insert(cardCodes).values({ code, orderId, label: `Order #${orderId}` });
const statusOf = async (id: number) => (await t.app.ctx.db.select({ s: orders.status }).from(orders).where(eq(orders.id, id)))[0].s;
const emailsTo = async (to: string) => (await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, to))).sort((a, b) => a.id - b.id);
const statusPage = async (id: number) => {
  const [o] = await t.app.ctx.db.select({ token: orders.statusToken }).from(orders).where(eq(orders.id, id));
  return (await user.get(`/api/order-status/${o.token}`)).json() as OrderStatusView;
};

describe('production queue', () => {
  it('lists approved orders by due date, flags overdue ones, filters by status and card type', async () => {
    const waiting = await insertOrder(t.app, { status: 'pending' }); // not approved: not on the floor
    const late = await insertOrder(t.app, { status: 'in-production', deliveryOption: 'rush-24h', cardType: 'color', createdAt: new Date('2025-03-03T10:00:00Z') });
    const fresh = await insertOrder(t.app, { status: 'processing' });
    const done = await insertOrder(t.app, { status: 'completed' });
    // a designed order is approved by its design review (through the API)
    const { order: designed, design } = await insertDesignWithOrder(t.app, { order: { status: 'pending', deliveryOption: 'rush-24h' } });
    // (a factory design has no images: the print check fails, staff override it with a reason)
    expect((await admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'approved', reviewNotes: '', overrideReason: 'Factory design without images' })).statusCode).toBe(200);

    const q = await queue();
    const ids = q.orders.map((o) => o.id);
    expect(ids).not.toContain(waiting.id);
    expect(ids).not.toContain(done.id);
    expect(ids).toEqual(expect.arrayContaining([late.id, fresh.id, designed.id]));
    // soonest due first: the 2025 rush order (overdue), then today's rush design, then the standard order
    expect(ids.indexOf(late.id)).toBeLessThan(ids.indexOf(designed.id));
    expect(ids.indexOf(designed.id)).toBeLessThan(ids.indexOf(fresh.id));
    const lateRow = q.orders.find((o) => o.id === late.id)!;
    expect(lateRow.overdue).toBe(true);
    expect(lateRow.dueAt).toBe('2025-03-04T23:59:59.999Z'); // Monday's rush order: due end of Tuesday
    const designedRow = q.orders.find((o) => o.id === designed.id)!;
    expect(designedRow.overdue).toBe(false);
    expect(designedRow.cardIds).toEqual([design.id]);

    expect((await queue('?status=in-production')).orders.map((o) => o.id)).toEqual([late.id]);
    expect((await queue('?cardType=color')).orders.map((o) => o.id)).toEqual([late.id]);
    expect((await queue('?status=completed')).orders.map((o) => o.id)).toContain(done.id);
    const bad = await admin.get('/api/admin/production?status=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.status).toBeTruthy();
  });
});

describe('NFC payloads', () => {
  it('encodes every batch code URL as an NDEF URI record, as JSON and CSV', async () => {
    const o = await insertOrder(t.app, { status: 'processing' });
    await addCode(o.id, 'NFCA23');
    await addCode(o.id, 'NFCB45');
    const res = await admin.get(`/api/admin/orders/${o.id}/nfc`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.payloads).toHaveLength(2);
    const first = body.payloads[0];
    expect(first.url).toBe(`${BASE}/c/NFCA23`);
    // http:// is URI code 0x03; "cards.test/c/NFCA23" is 19 bytes: payload 20 (0x14)
    expect(first.recordHex.startsWith('D101145503')).toBe(true);
    expect(first.tlvHex).toBe(ndefPayload(`${BASE}/c/NFCA23`).tlvHex);
    expect(first.bytes).toBe(19 + 8);
    expect(first.fitsNtag213).toBe(true);

    const csv = await admin.get(`/api/admin/orders/${o.id}/nfc.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const rows = parse(csv.body.replace(/^\uFEFF/, '')) as string[][];
    expect(rows[0]).toEqual(['code', 'url', 'ndef_hex', 'bytes', 'ndef_record_hex', 'fits_ntag213', 'fits_ntag215']);
    expect(rows[1]).toEqual(['NFCA23', `${BASE}/c/NFCA23`, first.tlvHex, '27', first.recordHex, 'yes', 'yes']);
    expect(rows).toHaveLength(3);
    expect((await admin.get('/api/admin/orders/999999/nfc')).statusCode).toBe(404);
  });
});

describe('job ticket', () => {
  it('is a one-page PDF that passes pdfinfo, with the order and a QR code that opens it in /admin', async () => {
    const o = await insertOrder(t.app, { status: 'in-production', deliveryOption: 'rush-24h', specialRequests: 'Gold edge please', customerName: 'Ada Ticket' });
    await addCode(o.id, 'TKT234');
    const res = await admin.get(`/api/admin/orders/${o.id}/job-ticket.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = path.join(tmp, `ticket-${o.id}.pdf`);
    fs.writeFileSync(file, res.rawPayload);
    const info = execFileSync('pdfinfo', [file]).toString();
    expect(info).toMatch(/Pages:\s+1\b/);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    for (const s of [`Order #${o.id}`, 'Ada Ticket', 'Expedited 24h', 'TKT234', 'Gold edge please', 'Due:', 'NTAG213']) expect(text).toContain(s);
    execFileSync('pdftoppm', ['-r', '150', '-png', '-singlefile', file, path.join(tmp, `ticket-${o.id}`)]);
    const decoded = await decodeQrImage(fs.readFileSync(path.join(tmp, `ticket-${o.id}.png`)));
    expect(decoded).toBe(`${BASE}/admin?tab=production&order=${o.id}`);
  });
});

describe('shipping and pickup', () => {
  it('refuses a bad tracking number with a field message and writes nothing', async () => {
    const o = await insertOrder(t.app, { status: 'quality-check' });
    for (const [carrier, trackingNumber, message] of [
      ['ups', '1Z999AA10123456785', TRACKING_MESSAGES.upsCheckDigit],
      ['ups', '1Z12', TRACKING_MESSAGES.ups],
      ['usps', '123', TRACKING_MESSAGES.usps],
      ['fedex', '1234567890123', TRACKING_MESSAGES.fedex],
    ] as const) {
      const res = await admin.post(`/api/admin/orders/${o.id}/shipment`, { carrier, trackingNumber });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.trackingNumber).toBe(message);
    }
    const noCarrier = await admin.post(`/api/admin/orders/${o.id}/shipment`, { carrier: 'dhl', trackingNumber: '123' });
    expect(noCarrier.statusCode).toBe(400);
    expect(noCarrier.json().errors.carrier).toBe(TRACKING_MESSAGES.carrier);
    expect(await statusOf(o.id)).toBe('quality-check');
  });

  it('marks shipped with a tracking link: history, e-mail through the outbox, timeline on the status page', async () => {
    const email = `ship_${Date.now()}@example.com`;
    const o = await insertOrder(t.app, { status: 'processing', email });
    await readyForProduction(t.app, o.id);
    expect((await admin.patch(`/api/admin/orders/${o.id}`, { status: 'in-production' })).statusCode).toBe(200);
    expect((await admin.patch(`/api/admin/orders/${o.id}`, { status: 'quality-check' })).statusCode).toBe(200);
    const res = await admin.post(`/api/admin/orders/${o.id}/shipment`, { carrier: 'ups', trackingNumber: '1z 999 aa1 0123 4567 84' });
    expect(res.statusCode).toBe(200);
    const shipped = res.json() as ProductionOrder;
    expect(shipped.status).toBe('shipped');
    expect(shipped.fulfilment).toMatchObject({ carrier: 'ups', trackingNumber: '1Z999AA10123456784', trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' });
    // the staff order detail carries the shipment too
    const detail = (await admin.get(`/api/admin/orders/${o.id}`)).json();
    expect(detail.shipment).toMatchObject({ carrier: 'ups', carrierLabel: 'UPS', trackingNumber: '1Z999AA10123456784', trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784', pickupCode: null });
    expect(Date.parse(detail.shipment.shippedAt)).toBeGreaterThan(Date.now() - 60_000);
    const history = await t.app.ctx.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id));
    expect(history.map((h) => h.toStatus)).toEqual(['in-production', 'quality-check', 'shipped']);
    const mails = await emailsTo(email);
    // milestones only (issue 35): the quality check is not e-mailed
    expect(mails.map((m) => m.subject)).toEqual([`Your cards are in production (order #${o.id}) - Metal Cards NYC`, `Your cards have shipped (order #${o.id}) - Metal Cards NYC`]);
    expect(mails[1].textBody).toContain('Carrier: UPS, tracking number 1Z999AA10123456784.');
    expect(mails[1].textBody).toContain('https://www.ups.com/track?tracknum=1Z999AA10123456784');

    const page = await statusPage(o.id);
    expect(page.fulfilment).toMatchObject({ carrierLabel: 'UPS', trackingNumber: '1Z999AA10123456784' });
    const step = page.timeline.find((s) => s.event === 'shipped')!;
    expect(step).toMatchObject({ label: 'Shipped', detail: 'UPS 1Z999AA10123456784', href: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' });
    expect(page.timeline.filter((s) => s.kind === 'status').map((s) => s.label)).toEqual(['In production', 'Quality check', 'Shipped']);

    // delivered: the last step reads "Delivered" for a shipped order
    expect((await admin.patch(`/api/admin/orders/${o.id}`, { status: 'completed' })).statusCode).toBe(200);
    expect((await statusPage(o.id)).timeline.at(-1)!.label).toBe('Delivered');
    expect((await emailsTo(email)).at(-1)!.subject).toBe(`Your cards were delivered (order #${o.id}) - Metal Cards NYC`);
  });

  it('ready for pickup: a short unambiguous code in the e-mail and on the status page; then Collected', async () => {
    const email = `pickup_${Date.now()}@example.com`;
    const o = await insertOrder(t.app, { status: 'quality-check', email, deliveryOption: 'pickup-nyc' });
    const res = await admin.post(`/api/admin/orders/${o.id}/pickup-ready`, {});
    expect(res.statusCode).toBe(200);
    const code = (res.json() as ProductionOrder).fulfilment!.pickupCode!;
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
    // again: the same code, no second e-mail
    expect((await admin.post(`/api/admin/orders/${o.id}/pickup-ready`, {})).json().fulfilment.pickupCode).toBe(code);
    const mails = await emailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Your cards are ready for pickup (order #${o.id}) - Metal Cards NYC`);
    expect(mails[0].textBody).toContain(`Your pickup code: ${code}`);
    const page = await statusPage(o.id);
    expect(page.fulfilment?.pickupCode).toBe(code);
    expect((await admin.get(`/api/admin/orders/${o.id}`)).json().shipment).toMatchObject({ pickupCode: code, trackingNumber: null, carrier: null });
    expect(page.timeline.at(-1)).toMatchObject({ label: 'Ready for pickup', detail: `Pickup code ${code}` });
    await admin.patch(`/api/admin/orders/${o.id}`, { status: 'completed' });
    expect((await statusPage(o.id)).timeline.at(-1)!.label).toBe('Collected');
    expect((await admin.post('/api/admin/orders/999999/pickup-ready', {})).statusCode).toBe(404);
  });
});

describe('access', () => {
  it('every production route is staff only', async () => {
    const o = await insertOrder(t.app, { status: 'processing' });
    const nobody = new Agent(t.app);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/production'],
      ['GET', `/api/admin/orders/${o.id}/job-ticket.pdf`],
      ['GET', `/api/admin/orders/${o.id}/nfc`],
      ['GET', `/api/admin/orders/${o.id}/nfc.csv`],
      ['GET', `/api/admin/orders/${o.id}/print-files.zip`],
      ['POST', '/api/admin/production/export', { orderIds: [o.id] }],
      ['POST', `/api/admin/orders/${o.id}/shipment`, { carrier: 'fedex', trackingNumber: '123456789012' }],
      ['POST', `/api/admin/orders/${o.id}/pickup-ready`, {}],
    ];
    for (const [method, url, body] of calls) {
      expect((await user.request(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
      expect((await nobody.request(method, url, body)).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await statusOf(o.id)).toBe('processing');
  });
});

/** The names in a ZIP, read with unzip -l (an independent reader). */
function zipNames(file: string): string[] {
  const out = execFileSync('unzip', ['-Z1', file]).toString();
  return out.trim().split('\n').filter(Boolean).sort();
}

describe('print-file ZIPs', () => {
  it('one order: job ticket, NFC CSV and both print files of its card', async () => {
    const { order, design } = await insertDesignWithOrder(t.app, { status: 'approved', order: { status: 'in-production' } });
    await addCode(order.id, 'ZIPA23');
    const res = await admin.get(`/api/admin/orders/${order.id}/print-files.zip`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const file = path.join(tmp, `order-${order.id}.zip`);
    fs.writeFileSync(file, res.rawPayload);
    execFileSync('unzip', ['-tq', file]);
    const names = zipNames(file);
    expect(names).toContain(`order-${order.id}/job-ticket-order-${order.id}.pdf`);
    expect(names).toContain(`order-${order.id}/nfc-order-${order.id}.csv`);
    expect(names.filter((n) => n.endsWith('.pdf') && !n.includes('job-ticket'))).toHaveLength(1);
    expect(names.filter((n) => n.endsWith('.svg'))).toHaveLength(1);
    expect(names.join(' ')).toContain(String(design.id));
  });

  it('several orders in one streamed ZIP (an order-form order has its artwork); unknown ids are refused before anything is sent', async () => {
    const a = await insertDesignWithOrder(t.app, { status: 'approved', order: { status: 'in-production' } });
    const b = await insertOrder(t.app, { status: 'processing' });
    // an order from /order without a design: its uploaded artwork is its print file
    const png = await pngImage(300, 180);
    const uploaded = await uploadArtworkFile(t.app, { name: 'logo.png', type: 'image/png', data: png });
    const artworkUrl = uploaded.json()[0].url as string;
    const c = await insertOrder(t.app, { status: 'processing', artworkUrl });
    const res = await admin.post('/api/admin/production/export', { orderIds: [a.order.id, b.id, c.id] });
    expect(res.statusCode).toBe(200);
    const file = path.join(tmp, 'export.zip');
    fs.writeFileSync(file, res.rawPayload);
    const names = zipNames(file);
    expect(names).toEqual(
      expect.arrayContaining([
        `order-${a.order.id}/job-ticket-order-${a.order.id}.pdf`,
        `order-${b.id}/job-ticket-order-${b.id}.pdf`,
        `order-${b.id}/nfc-order-${b.id}.csv`,
        `order-${c.id}/artwork-order-${c.id}.${artworkUrl.split('.').pop()}`,
        'problems.txt',
      ]),
    );
    expect(names.filter((n) => n.startsWith(`order-${a.order.id}/`) && n.endsWith('.svg'))).toHaveLength(1);
    // the order with neither design nor artwork is named in problems.txt
    expect(execFileSync('unzip', ['-p', file, 'problems.txt']).toString()).toContain(`Order #${b.id}: no designed card and no artwork`);
    // the stored artwork, byte for byte
    const stored = (await admin.get(artworkUrl)).rawPayload;
    expect(execFileSync('unzip', ['-p', file, `order-${c.id}/artwork-order-${c.id}.${artworkUrl.split('.').pop()}`]).equals(stored)).toBe(true);
    // the job ticket inside passes pdfinfo
    execFileSync('unzip', ['-o', '-q', file, `order-${b.id}/job-ticket-order-${b.id}.pdf`, '-d', tmp]);
    expect(execFileSync('pdfinfo', [path.join(tmp, `order-${b.id}/job-ticket-order-${b.id}.pdf`)]).toString()).toMatch(/Pages:\s+1\b/);

    // with the jig sheet: one more PDF, a front and a back page sized for the rows, columns and gap
    const withSheet = await admin.post('/api/admin/production/export', { orderIds: [a.order.id], sheet: { rows: 2, columns: 3, gapMm: 4, registrationMarks: true } });
    expect(withSheet.statusCode).toBe(200);
    const sheetZip = path.join(tmp, 'sheet.zip');
    fs.writeFileSync(sheetZip, withSheet.rawPayload);
    expect(zipNames(sheetZip)).toContain('sheet.pdf');
    execFileSync('unzip', ['-o', '-q', sheetZip, 'sheet.pdf', '-d', tmp]);
    const sheetInfo = execFileSync('pdfinfo', [path.join(tmp, 'sheet.pdf')]).toString();
    expect(sheetInfo).toMatch(/Pages:\s+2\b/);
    // (15 + 3 x 88.9 + 2 x 4 + 15) mm wide, (15 + 2 x 50.8 + 4 + 15) mm high, in points
    const [, w, h] = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(sheetInfo)!;
    expect(Number(w)).toBeCloseTo(((30 + 3 * 88.9 + 8) * 72) / 25.4, 0);
    expect(Number(h)).toBeCloseTo(((30 + 2 * 50.8 + 4) * 72) / 25.4, 0);
    const badSheet = await admin.post('/api/admin/production/export', { orderIds: [a.order.id], sheet: { rows: 0, columns: 3, gapMm: 4 } });
    expect(badSheet.statusCode).toBe(400);
    expect(badSheet.json().errors['sheet.rows']).toBe('Rows: a whole number from 1 to 20');

    const bad = await admin.post('/api/admin/production/export', { orderIds: [a.order.id, 99999999] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.orderIds).toContain('#99999999');
    expect((await admin.post('/api/admin/production/export', { orderIds: [] })).json().errors.orderIds).toBe('Choose at least one order');
  });
});

describe('a client that goes away', () => {
  it('stops the ZIP: no more print files are rendered', async () => {
    const made = [];
    for (let i = 0; i < 30; i++) made.push(await insertDesignWithOrder(t.app, { status: 'approved', order: { status: 'in-production' } }));
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const body = JSON.stringify({ orderIds: made.map((m) => m.order.id) });
    // a plain HTTP client without keep-alive: read the first bytes, then hang up
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        { host: address.hostname, port: address.port, method: 'POST', path: '/api/admin/production/export', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), cookie, origin: address.origin } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
      req.end(body);
    });
    // the render in flight finishes; nothing new starts (30 cards would keep the pool busy for seconds)
    await new Promise((r) => setTimeout(r, 1500));
    const samples: number[] = [];
    for (let i = 0; i < 10; i++) {
      samples.push(workerPool().pending('render'));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(samples.every((n) => n === 0)).toBe(true);
  });
});
