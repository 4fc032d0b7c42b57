import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { decodeQrImage, decodeQrSvg } from '#tests/helpers/qr-decode';
import { QR_MAX_DATA_LENGTH } from '#shared/qr/qr-svg';
import { workerPool } from '#server/infra/worker-pool';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t.close();
});

const url = 'https://cards.example.com/p/ab3kx9mqz2';

describe('GET /api/qrcode', () => {
  it('answers an SVG of size 200 that decodes to the data, with a sandboxing CSP', async () => {
    const res = await new Agent(t.app).get(`/api/qrcode?data=${encodeURIComponent(url)}&size=200`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('width="200"');
    expect(decodeQrSvg(res.body)).toBe(url);
  });

  it('renders every style, and PNG on request, all decodable', async () => {
    for (const style of ['standard', 'rounded', 'circular', 'dot', 'square']) {
      const res = await new Agent(t.app).get(`/api/qrcode?data=${encodeURIComponent(url)}&style=${style}&size=300`);
      expect(res.statusCode, style).toBe(200);
      expect(decodeQrSvg(res.body), style).toBe(url);
    }
    const png = await new Agent(t.app).get(`/api/qrcode?data=${encodeURIComponent(url)}&format=png&size=240`);
    expect(png.headers['content-type']).toBe('image/png');
    expect(await decodeQrImage(png.rawPayload)).toBe(url);
  });

  it('rasterises the PNG on the worker pool, not on the thread that answers requests (issue 18)', async () => {
    const run = vi.spyOn(workerPool(), 'run');
    try {
      const png = await new Agent(t.app).get(`/api/qrcode?data=${encodeURIComponent(url)}&format=png&size=1024`);
      expect(png.statusCode).toBe(200);
      expect(run.mock.calls.map((c) => [c[0], c[1]])).toEqual([['visitor', 'qrPng']]);
      expect(await decodeQrImage(png.rawPayload)).toBe(url);
    } finally {
      run.mockRestore();
    }
  });

  it('refuses missing, oversized and malformed input with 400 and field messages', async () => {
    const a = new Agent(t.app);
    const cases: Array<[string, string]> = [
      ['/api/qrcode', 'data'],
      ['/api/qrcode?data=', 'data'],
      [`/api/qrcode?data=${'x'.repeat(QR_MAX_DATA_LENGTH + 1)}`, 'data'],
      ['/api/qrcode?data=a&size=5000', 'size'],
      ['/api/qrcode?data=a&size=abc', 'size'],
      ['/api/qrcode?data=a&style=wavy', 'style'],
      ['/api/qrcode?data=a&evil=1', 'evil'],
    ];
    for (const [path, field] of cases) {
      const res = await a.get(path);
      expect(res.statusCode, path).toBe(400);
      expect(res.json().errors, path).toHaveProperty(field);
    }
    // within the character cap but beyond what error correction H can hold (multi-byte text)
    const res = await a.get(`/api/qrcode?data=${encodeURIComponent('é'.repeat(QR_MAX_DATA_LENGTH))}`);
    expect(res.statusCode).toBe(400);
  });
});
