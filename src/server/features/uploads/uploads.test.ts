import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { uploadAs } from '#tests/helpers/multipart';
import { uploadArtworkFile } from '#tests/helpers/orders';

let t: TestApp;
let agent: Agent;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  agent = (await signedInAgent(t.app)).agent;
});
afterAll(async () => {
  await t.close();
});

const fileCount = async () => Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from files`)) as any).rows[0].n);
const up = (kind: string, field: string, data: Buffer, filename = 'photo.png', contentType = 'image/png') =>
  uploadAs(t.app, agent, `/api/upload/${kind}`, field, data, { filename, contentType });
const fetchFile = (url: string) => t.app.inject({ method: 'GET', url });

/** A real PDF (pdfkit): a red square and a blue disc on a `w` x `h` pt page, transparent around them. */
async function pdf(w = 200, h = 100, pages = 1): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: [w, h], autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => doc.on('end', r));
  for (let i = 0; i < pages; i++) {
    doc.addPage({ size: [w, h], margin: 0 });
    doc.rect(w * 0.05, h * 0.1, w * 0.4, h * 0.8).fill('#cc3333');
    doc.circle(w * 0.75, h * 0.5, Math.min(w, h) * 0.4).fill('#3366cc');
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

const png = (w = 64, h = 64, color = '#2255aa') => sharp({ create: { width: w, height: h, channels: 3, background: color } }).png().toBuffer();

describe('profile image uploads', () => {
  it('stores each of the three images under a server-made name and answers { url }', async () => {
    for (const [kind, field] of [
      ['profile-image', 'profileImage'],
      ['logo', 'logoImage'],
      ['banner-logo', 'bannerLogoImage'],
    ]) {
      const res = await up(kind, field, await png(), '../../etc/passwd.png');
      expect(res.statusCode, kind).toBe(201);
      const { url } = res.json();
      expect(Object.keys(res.json())).toEqual(['url']);
      expect(url).toMatch(/^\/files\/uploads\/\d{4}\/[a-z2-9]{24}\.(png|jpg)$/);
      const got = await fetchFile(url);
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toMatch(/^image\/(png|jpeg)$/);
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['content-security-policy']).toContain('sandbox');
      expect(got.headers['cache-control']).toContain('immutable');
      const meta = await sharp(got.rawPayload).metadata();
      expect(meta.width).toBe(64);
    }
  });

  it('re-encodes: EXIF and GPS are gone, orientation applied, big pictures resized', async () => {
    const withGps = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#884422' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'SpyCam', Model: 'X1' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 44/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '73/1 59/1 0/1' },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const inMeta = await sharp(withGps).metadata();
    expect(inMeta.exif).toBeDefined();
    expect(inMeta.orientation).toBe(6);
    expect(withGps.includes(Buffer.from('SpyCam'))).toBe(true);

    const res = await up('profile-image', 'profileImage', withGps, 'me.jpg', 'image/jpeg');
    expect(res.statusCode).toBe(201);
    const stored = (await fetchFile(res.json().url)).rawPayload;
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(stored.includes(Buffer.from('SpyCam'))).toBe(false);
    // orientation 6 (rotate 90) applied, then fitted inside 800x800
    expect(meta.width).toBeLessThanOrEqual(800);
    expect(meta.height).toBe(800);
    expect(meta.width).toBeLessThan(meta.height!);
  });

  it('decides the type by the bytes, not the name (415), and writes nothing', async () => {
    const before = await fileCount();
    const cases: Array<[Buffer, string, string]> = [
      [Buffer.from('just some text, not an image'), 'photo.png', 'image/png'],
      [Buffer.from('<!doctype html><html><script>alert(1)</script></html>'), 'photo.jpg', 'image/jpeg'],
      [Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF'), 'photo.png', 'image/png'],
      [Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]), 'fake.png', 'image/png'],
    ];
    for (const [data, name, type] of cases) {
      const res = await up('profile-image', 'profileImage', data, name, type);
      expect(res.statusCode, name).toBe(415);
      expect(res.json().message).toBeTruthy();
    }
    // SVG is a logo format, not a photo format
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    expect((await up('profile-image', 'profileImage', svg, 'a.svg', 'image/svg+xml')).statusCode).toBe(415);
    expect(await fileCount()).toBe(before);
  });

  it('refuses polyglots: an image that is also HTML/script or an archive', async () => {
    const before = await fileCount();
    const base = await png();
    const htmlTail = Buffer.concat([base, Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')]);
    const zipTail = Buffer.concat([base, Buffer.from('PK\u0003\u0004junk'), Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).gif().toBuffer();
    const gifJs = Buffer.concat([gif, Buffer.from('*/=1;javascript:alert(1)//')]);
    for (const data of [htmlTail, zipTail, gifJs]) {
      const res = await up('profile-image', 'profileImage', data);
      expect(res.statusCode).toBe(415);
    }
    expect(await fileCount()).toBe(before);
  });

  it('caps size at 5 MB while streaming (413) and caps the pixel count', async () => {
    const before = await fileCount();
    const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024 + 10, 1)]);
    const res = await up('profile-image', 'profileImage', big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/File too large/);
    // a tiny file that decodes to 100 megapixels
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    const res2 = await up('profile-image', 'profileImage', bomb);
    expect(res2.statusCode).toBe(413);
    expect(await fileCount()).toBe(before);
  });

  it('sanitizes SVG logos and serves them with a sandboxing CSP', async () => {
    const evil = Buffer.from(
      `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="40" onload="alert(1)">` +
        `<script>alert(2)</script><a xlink:href="javascript:alert(3)"><rect width="100" height="40" fill="#123456"/></a>` +
        `<image href="https://tracker.example/x.png" width="1" height="1"/><style>@import url(https://evil.example/x.css);</style></svg>`,
    );
    const res = await up('logo', 'logoImage', evil, 'logo.svg', 'image/svg+xml');
    expect(res.statusCode).toBe(201);
    expect(res.json().url).toMatch(/\.svg$/);
    const got = await fetchFile(res.json().url);
    expect(got.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
    const body = got.body;
    expect(body).toContain('#123456');
    for (const bad of ['<script', 'onload', 'javascript:', 'tracker.example', '@import', 'evil.example']) expect(body).not.toContain(bad);
    // an SVG that is not XML at all is refused
    expect((await up('logo', 'logoImage', Buffer.from('<svg><g></svg>'), 'x.svg', 'image/svg+xml')).statusCode).toBe(400);
  });

  it('answers 400 for a missing or misnamed field, 415 for a non-multipart request, 401 signed out', async () => {
    const wrong = await up('logo', 'profileImage', await png());
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toHaveProperty('logoImage');
    const json = await agent.post('/api/upload/logo', { logoImage: 'x' });
    expect(json.statusCode).toBe(415);
    const anon = await uploadAs(t.app, new Agent(t.app), '/api/upload/logo', 'logoImage', await png());
    expect(anon.statusCode).toBe(401);
    const empty = await up('logo', 'logoImage', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
  });
});

describe('PDF logos and artwork (issue 37: "JPG, PNG or PDF at 300 DPI")', () => {
  it('stores a PDF logo as a transparent PNG of its first page, drawn at 300 DPI within the logo size', async () => {
    const before = await fileCount();
    // a 1.2 x 0.6 in page: 360 x 180 px at 300 DPI
    const res = await up('logo', 'logoImage', await pdf(86.4, 43.2, 2), 'logo.pdf', 'application/pdf');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().url).toMatch(/\.png$/);
    const got = await fetchFile(res.json().url);
    expect(got.headers['content-type']).toBe('image/png');
    const img = sharp(got.rawPayload);
    const meta = await img.metadata();
    expect([meta.width, meta.height]).toEqual([360, 180]);
    expect(meta.hasAlpha).toBe(true);
    // the drawing is there: red on the left, blue on the right, transparent in the corner
    const { data, info } = await img.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4));
    expect(at(80, 90)).toEqual([0xcc, 0x33, 0x33, 255]);
    expect(at(270, 90)).toEqual([0x33, 0x66, 0xcc, 255]);
    expect(at(1, 1)[3]).toBe(0);
    expect(await fileCount()).toBe(before + 1);
  });

  it('a big page is drawn no larger than the upload keeps (800 px for a logo), and the order form takes PDF artwork too', async () => {
    const big = await up('logo', 'logoImage', await pdf(612, 792), 'letter.pdf', 'application/pdf');
    expect(big.statusCode, big.body).toBe(201);
    const meta = await sharp((await fetchFile(big.json().url)).rawPayload).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(800);
    const art = await uploadArtworkFile(t.app, { name: 'card.pdf', type: 'application/pdf', data: await pdf(252, 144) });
    expect(art.statusCode, art.body).toBe(201);
    const [{ url }] = art.json();
    expect(url).toMatch(/\.png$/);
    // 3.5 x 2 in at 300 DPI
    const artMeta = await sharp((await fetchFile(url)).rawPayload).metadata();
    expect([artMeta.width, artMeta.height]).toEqual([1050, 600]);
  });

  it('refuses a PDF that is not one (415), a password-protected one (400), and writes nothing; photos still refuse PDF', async () => {
    const before = await fileCount();
    const broken = await up('logo', 'logoImage', Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF'), 'x.pdf', 'application/pdf');
    expect([400, 415]).toContain(broken.statusCode);
    expect(broken.json().message).toBeTruthy();
    const { default: PDFDocument } = await import('pdfkit');
    const doc = new PDFDocument({ size: [100, 100], userPassword: 'secret', ownerPassword: 'owner' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise((r) => doc.on('end', r));
    doc.rect(10, 10, 50, 50).fill('#000');
    doc.end();
    await ended;
    const locked = await up('logo', 'logoImage', Buffer.concat(chunks), 'locked.pdf', 'application/pdf');
    expect(locked.statusCode).toBe(400);
    expect(locked.json().message).toBe('This PDF is protected by a password. Please upload it without one.');
    const photo = await up('profile-image', 'profileImage', await pdf(), 'me.pdf', 'application/pdf');
    expect(photo.statusCode).toBe(415);
    expect(await fileCount()).toBe(before);
  });
});

describe('GET /files/*', () => {
  it('answers 404 for unknown keys and path tricks, 304 on a matching ETag', async () => {
    for (const url of ['/files/uploads/2026/nope.png', '/files/../package.json', '/files/%2e%2e/%2e%2e/etc/passwd', '/files/UPPER/Case.png', '/files/']) {
      const res = await fetchFile(url);
      expect(res.statusCode, url).toBe(404);
    }
    const res = await up('profile-image', 'profileImage', await png());
    const url = res.json().url;
    const first = await fetchFile(url);
    const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('serves files other features stored, with their type, and unknown types as downloads', async () => {
    await t.app.ctx.storage.put('cards/2026/abcdefghijkmnpqrstuv.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    const svg = await fetchFile('/files/cards/2026/abcdefghijkmnpqrstuv.svg');
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.headers['content-security-policy']).toContain('sandbox');
    await t.app.ctx.storage.put('artwork/2026/abcdefghijkmnpqrstuv.html', Buffer.from('<script>alert(1)</script>'), 'text/html');
    const html = await fetchFile('/files/artwork/2026/abcdefghijkmnpqrstuv.html');
    expect(html.headers['content-type']).toBe('application/octet-stream');
    expect(html.headers['content-disposition']).toMatch(/^attachment/);
  });
});
