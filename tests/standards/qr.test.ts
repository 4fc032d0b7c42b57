import { Resvg } from '@resvg/resvg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { QR_QUIET_ZONE, QR_STYLES, qrMatrix, qrMinReadableSize, type QrStyle } from '#shared/qr/qr-svg';
import { signatureQrImageUrl } from '#web/features/engagement/email-signature';
import { zbarMissing, zbarRead, zxingRead } from './decoders';

/**
 * Issue 36: every QR code `GET /api/qrcode` hands out is read by ZXing (zxing-wasm) and ZBar
 * (zbarimg), across the allowed space sampled at its edges: each style, short and long data, the
 * smallest size the API accepts for them and the largest; sizes below that are refused (400, field
 * message) instead of answered with an unreadable code. The default quiet zone is 4 modules.
 */
const skip = zbarMissing();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

const SHORT = 'https://cards.example.com/p/ab3kx9mqz2';
const LONG = `https://cards.example.com/p/ab3kx9mqz2?${'utm_campaign=launch&'.repeat(12)}x=1`; // ~290 characters

const get = (q: Record<string, string | number>) => new Agent(t.app).get(`/api/qrcode?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);

/** The answer as PNG bytes: PNG as is, SVG rasterised at its own size (what a browser shows). */
function pngOf(res: { headers: Record<string, unknown>; rawPayload: Buffer; body: string }, size: number): Uint8Array {
  if (String(res.headers['content-type']).startsWith('image/png')) return res.rawPayload;
  return new Resvg(res.body, { fitTo: { mode: 'width', value: size }, background: 'white' }).render().asPng();
}

async function expectReadable(png: Uint8Array, data: string, what: string) {
  expect((await zxingRead(png))[0], `ZXing cannot read ${what}`).toBe(data);
  expect(zbarRead(png)[0], `ZBar cannot read ${what}`).toBe(data);
}

describe.skipIf(!!skip)(`QR codes through ZXing and ZBar${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('the default answer has a 4-module quiet zone', async () => {
    const res = await get({ data: SHORT, size: 400 });
    expect(res.statusCode).toBe(200);
    const w = qrMatrix(SHORT, 'H').length + 2 * QR_QUIET_ZONE;
    expect(res.body).toContain(`viewBox="0 0 ${w} ${w}"`);
    // the first dark module (the finder's corner) starts 4 modules in
    expect(res.body).toMatch(/<path d="M4 4h7/);
  });

  it('every style, short and long data, at the smallest accepted and the largest size, SVG and PNG: both readers decode it', async () => {
    for (const style of QR_STYLES) {
      for (const data of [SHORT, LONG]) {
        const margin = style === 'circular' ? 0 : QR_QUIET_ZONE;
        const min = qrMinReadableSize(data, { style: style as QrStyle, margin });
        for (const size of [Math.max(32, min), 1024]) {
          for (const format of ['png', 'svg'] as const) {
            if (format === 'svg' && size === 1024) continue; // the same drawing as the PNG at 1024
            const res = await get({ data, size, style, format });
            expect(res.statusCode, `${style} ${data.length} chars at ${size} px`).toBe(200);
            await expectReadable(pngOf(res, size), data, `${style}, ${data.length} characters, ${size} px ${format}`);
          }
        }
      }
    }
  }, 60_000);

  it('refuses, with a field message, sizes and data lengths its own output cannot be read at', async () => {
    const small = await get({ data: SHORT, size: 32, format: 'png' });
    expect(small.statusCode).toBe(400);
    expect(small.json().errors.size).toMatch(/^size must be at least \d+ for this data and style$/);
    const min = Number(/at least (\d+)/.exec(small.json().errors.size)![1]);
    expect((await get({ data: SHORT, size: min - 1 })).statusCode).toBe(400);
    expect((await get({ data: SHORT, size: min })).statusCode).toBe(200);

    const thousand = await get({ data: 'y'.repeat(1000) });
    expect(thousand.statusCode).toBe(400);
    expect(thousand.json().errors.size).toMatch(/at least/);
    // readable at a larger size: answered, and decoded
    const big = await get({ data: 'y'.repeat(1000), size: 1024, format: 'png' });
    expect(big.statusCode).toBe(200);
    await expectReadable(big.rawPayload, 'y'.repeat(1000), '1,000 characters at 1024 px');

    // the longest data in the most demanding style: refused just below its minimum, read at the largest size
    const cmin = qrMinReadableSize('y'.repeat(1000), { style: 'circular', margin: 0 });
    expect(cmin).toBeLessThanOrEqual(1024);
    expect((await get({ data: 'y'.repeat(1000), style: 'circular', size: cmin - 1 })).json().errors.size).toMatch(/at least/);
    const circular = await get({ data: 'y'.repeat(1000), style: 'circular', size: 1024, format: 'png' });
    expect(circular.statusCode).toBe(200);
    await expectReadable(circular.rawPayload, 'y'.repeat(1000), '1,000 characters, circular, at 1024 px');
  }, 30_000);

  it('the e-mail signature QR: 4-module quiet zone, read by both', async () => {
    const src = new URL(signatureQrImageUrl('https://cards.example.com', 'ab3kx9mqz2'));
    expect(src.searchParams.get('margin')).toBe(String(QR_QUIET_ZONE));
    const res = await new Agent(t.app).get(`${src.pathname}${src.search}`);
    expect(res.statusCode).toBe(200);
    await expectReadable(res.rawPayload, src.searchParams.get('data')!, 'the e-mail signature QR');
  });
});
