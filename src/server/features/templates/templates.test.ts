import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { decodeQrImage } from '#tests/helpers/qr-decode';
import { shippingAddressInput } from '#tests/helpers/orders';
import { BUILTIN_TEMPLATES } from '#shared/templates/builtin';
import { templates } from '#server/db/schema/index';
import { SANDBOX_CSP } from '#server/plugins/security';
import { cachedThumbnail, warmTemplateThumbnails } from './templates.service';

let t: TestApp;
beforeAll(async () => {
  // many sign-ups from one address in this file: the sign-up limit is tested elsewhere
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t.close();
});

const design = (over: Record<string, unknown> = {}) => ({
  templateId: 17,
  cardType: 'standard',
  customerProfile: {
    fullName: 'Grace Hopper',
    jobTitle: 'Rear Admiral',
    companyName: 'US Navy',
    email: 'grace@example.com',
    phoneNumber: '+1 212 555 0100',
    address: '1 Navy Yard, New York, NY',
    website: 'https://example.com/grace',
    linkedinUrl: '',
  },
  submittedAt: new Date().toISOString(),
  shippingAddress: shippingAddressInput(),
  ...over,
});

/** Gives a signed-in agent a profile (through the profile API) and returns its id. */
async function withProfile(agent: Agent, fullName = 'Grace Hopper') {
  const res = await agent.put('/api/profile', { fullName, jobTitle: 'Rear Admiral', email: 'grace@example.com', phoneNumber: '+1 212 555 0100' });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().id as string;
}

const SVG = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1050 600" width="1050" height="600">${inner}</svg>`;

describe('template list and files', () => {
  it('seeds the four built-in templates (idempotently)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/templates' });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((x: any) => [x.id, x.name, x.folder, x.isActive, x.category])).toEqual([
      [15, 'Minimal', 'minimal', true, 'Business Card'],
      [16, 'Classic', 'classic', true, 'Business Card'],
      [17, 'Simple', 'simple', true, 'Business Card'],
      [18, 'Modern', 'modern', true, 'Business Card'],
    ]);
    // issue 37: every template is shown on its metal, none inverted
    expect(list.filter((x: any) => x.invertThumbnail).map((x: any) => x.id)).toEqual([]);
    // running the seed again changes nothing
    const { runSeeds } = await import('#server/seeds');
    await runSeeds(t.app.ctx);
    expect((await t.app.inject({ method: 'GET', url: '/api/templates' })).json()).toHaveLength(4);
  });

  it('GET /api/svg-templates gives both SVGs; notes only to admins', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/svg-templates' });
    expect(res.statusCode).toBe(200);
    const simple = res.json().find((x: any) => x.id === 17);
    expect(simple.front).toContain('data-field="fullName"');
    expect(simple.back).toContain('data-slot="qr"');
    expect(simple.frontUrl).toBe(`/templates/svg/simple/front.svg?v=${simple.version}`);
    expect(simple).not.toHaveProperty('notes');
    const { agent } = await adminAgent(t.app);
    expect((await agent.get('/api/svg-templates')).json()[0]).toHaveProperty('notes');
  });

  it('serves /templates/svg/{folder}/{side}.svg from the database with the sandbox CSP and an ETag', async () => {
    for (const b of BUILTIN_TEMPLATES) {
      for (const side of ['front', 'back'] as const) {
        const res = await t.app.inject({ method: 'GET', url: `/templates/svg/${b.folder}/${side}.svg` });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
        expect(res.headers['content-security-policy']).toBe(SANDBOX_CSP);
        expect(res.body).toBe(b[side]);
        const again = await t.app.inject({ method: 'GET', url: `/templates/svg/${b.folder}/${side}.svg`, headers: { 'if-none-match': String(res.headers.etag) } });
        expect(again.statusCode).toBe(304);
      }
    }
    const versioned = await t.app.inject({ method: 'GET', url: '/templates/svg/simple/front.svg?v=1' });
    expect(versioned.headers['cache-control']).toContain('immutable');
    for (const bad of ['/templates/svg/unknown/front.svg', '/templates/svg/simple/side.svg', '/templates/svg/simple/..%2f..%2fetc.svg']) {
      expect((await t.app.inject({ method: 'GET', url: bad })).statusCode).toBe(404);
    }
  });

  it('thumbnails: JPEG raster, cached with an ETag (304), 404/400 for bad ids and sides', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/template-thumbnail/17/front' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(700);
    expect(meta.height).toBe(400);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"t17-front-v\d+-[0-9a-f]{16}"$/);
    expect(res.headers['cache-control']).toContain('no-cache');
    const cached = await t.app.inject({ method: 'GET', url: '/api/template-thumbnail/17/front', headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    const versioned = await t.app.inject({ method: 'GET', url: '/api/template-thumbnail/17/back?v=1' });
    expect(versioned.headers['cache-control']).toContain('immutable');
    // the sample QR on the thumbnail is readable
    expect(await decodeQrImage(versioned.rawPayload)).toMatch(/\/templates$/);

    expect((await t.app.inject({ method: 'GET', url: '/api/template-thumbnail/999/front' })).statusCode).toBe(404);
    const side = await t.app.inject({ method: 'GET', url: '/api/template-thumbnail/17/left' });
    expect(side.statusCode).toBe(400);
    expect(side.json().errors.side).toBe('Side must be front or back');
    expect((await t.app.inject({ method: 'GET', url: '/api/template-thumbnail/abc/front' })).statusCode).toBe(400);
  });

  it('preview: the template filled with the sample person, as SVG', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/template-preview/16/front' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['content-security-policy']).toBe(SANDBOX_CSP);
    expect(res.body).toContain('Alexandra Reed');
    expect((await t.app.inject({ method: 'GET', url: '/api/template-preview/3/front' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/template-preview/16/top' })).statusCode).toBe(400);
  });

  it('GET /fonts/{file} serves the bundled TTFs with a long cache, nothing else', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/fonts/Inter_400Regular.ttf' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('font/ttf');
    expect(res.headers['cache-control']).toContain('max-age=31536000');
    expect(res.rawPayload.readUInt32BE(0)).toBe(0x00010000);
    for (const bad of ['/fonts/..%2Fpackage.json', '/fonts/nope.ttf', '/fonts/Inter_400Regular.ttf.png']) {
      expect((await t.app.inject({ method: 'GET', url: bad })).statusCode).toBe(404);
    }
  });
});

describe('POST /api/template-customize', () => {
  it('fills the fields into SVG text, escaping everything', async () => {
    const res = await new Agent(t.app).post('/api/template-customize/17/front', {
      fullName: '<script>alert(1)</script>',
      jobTitle: 'Engineer & "Maker"',
      companyName: 'ACME',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('Engineer &amp; &quot;Maker&quot;');
  });

  it('uses the QR code of the signed-in owner’s profile', async () => {
    const { agent } = await signedInAgent(t.app);
    const id = await withProfile(agent);
    const res = await agent.post('/api/template-customize/17/back', { fullName: 'Grace Hopper', email: 'g@example.com' });
    expect(res.statusCode).toBe(200);
    const png = await sharp(Buffer.from(res.body)).png().toBuffer();
    expect(await decodeQrImage(png)).toBe(`http://localhost:80/p/${id}`);
    // signed out: the placeholder
    const anon = await new Agent(t.app).post('/api/template-customize/17/back', { fullName: 'Grace Hopper' });
    expect(anon.body).toContain('>QR</text>');
  });

  it('refuses bad input: unknown template 404, bad side 400, unknown fields 400, outside logo URLs 400', async () => {
    const a = new Agent(t.app);
    expect((await a.post('/api/template-customize/999/front', { fullName: 'x' })).statusCode).toBe(404);
    expect((await a.post('/api/template-customize/17/middle', { fullName: 'x' })).statusCode).toBe(400);
    const extra = await a.post('/api/template-customize/17/front', { fullName: 'x', evil: 1 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors.evil).toBeTruthy();
    const logo = await a.post('/api/template-customize/17/front', { logoUrl: 'http://169.254.169.254/latest' });
    expect(logo.statusCode).toBe(400);
    expect(logo.json().errors.logoUrl).toBeTruthy();
    const js = await a.post('/api/template-customize/17/back', { website: 'javascript:alert(1)' });
    expect(js.statusCode).toBe(400);
  });
});

describe('POST /api/generate-card', () => {
  it('401 signed out', async () => {
    const res = await new Agent(t.app).post('/api/generate-card', { templateId: 17, format: 'jpeg' });
    expect(res.statusCode).toBe(401);
  });

  it('JPEG front and back of the user’s profile, the back’s QR opening their public profile', async () => {
    const { agent } = await signedInAgent(t.app);
    const id = await withProfile(agent, 'Ada Lovelace');
    const res = await agent.post('/api/generate-card', { templateId: 18, format: 'jpeg' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    for (const side of ['front', 'back'] as const) {
      expect(body[side].mimeType).toBe('image/jpeg');
      expect(body[side].filename).toBe(`ada-lovelace-${side}.jpg`);
      const meta = await sharp(Buffer.from(body[side].data, 'base64')).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1050, 600]);
    }
    expect(await decodeQrImage(Buffer.from(body.back.data, 'base64'))).toBe(`http://localhost:80/p/${id}`);
  });

  it('SVG format gives the filled SVG text', async () => {
    const { agent } = await signedInAgent(t.app);
    await withProfile(agent, 'Ada Lovelace');
    const res = await agent.post('/api/generate-card', { templateId: 15, format: 'svg' });
    expect(res.statusCode).toBe(200);
    const front = Buffer.from(res.json().front.data, 'base64').toString('utf8');
    expect(res.json().front.mimeType).toBe('image/svg+xml');
    expect(front).toContain('Ada Lovelace');
  });

  it('without a profile: the account name and no QR code yet', async () => {
    const { agent } = await signedInAgent(t.app);
    const res = await agent.post('/api/generate-card', { format: 'svg' });
    expect(res.statusCode).toBe(200);
    expect(Buffer.from(res.json().front.data, 'base64').toString()).toContain('Ada Lovelace');
    expect(Buffer.from(res.json().back.data, 'base64').toString()).toContain('>QR</text>');
  });

  it('wrong format 400, unknown template 404', async () => {
    const { agent } = await signedInAgent(t.app);
    const fmt = await agent.post('/api/generate-card', { templateId: 17, format: 'gif' });
    expect(fmt.statusCode).toBe(400);
    expect(fmt.json().errors.format).toBe('Format must be svg or jpeg');
    expect((await agent.post('/api/generate-card', { templateId: 4242, format: 'jpeg' })).statusCode).toBe(404);
  });
});

describe('POST /api/admin/generate-card', () => {
  it('401 signed out, 403 for a non-admin', async () => {
    const body = { customerData: { fullName: 'X' }, templateId: 17, format: 'jpeg' };
    expect((await new Agent(t.app).post('/api/admin/generate-card', body)).statusCode).toBe(401);
    const { agent } = await signedInAgent(t.app);
    expect((await agent.post('/api/admin/generate-card', body)).statusCode).toBe(403);
  });

  it('a JPEG proof (front above back) named business-card-{customer}-{orderId}.jpg', async () => {
    const { agent: user } = await signedInAgent(t.app);
    const profileId = await withProfile(user);
    const submitted = await user.post('/api/cards/submit-for-review', design());
    expect(submitted.statusCode).toBe(201);
    const orderId = submitted.json().orderId;

    const { agent } = await adminAgent(t.app);
    const res = await agent.post('/api/admin/generate-card', {
      customerData: { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral', email: 'grace@example.com', phoneNumber: '555', address: 'NYC', companyName: 'Navy' },
      templateId: 16,
      cardType: 'standard',
      format: 'jpeg',
      orderId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="business-card-grace-hopper-${orderId}.jpg"`);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([1050, 1230]);
    // the back (lower half) carries the order batch's own short code, which leads to the owner's profile
    const back = await sharp(res.rawPayload).extract({ left: 0, top: 630, width: 1050, height: 600 }).png().toBuffer();
    const decoded = (await decodeQrImage(back))!;
    expect(decoded).toMatch(/^HTTP:\/\/LOCALHOST:80\/C\/[2-9A-Z]{6}$/);
    const code = decoded.split('/').pop()!;
    const hop = await new Agent(t.app).get(`/c/${code.toLowerCase()}`);
    expect(hop.statusCode).toBe(302);
    expect(hop.headers.location).toContain(`/p/${profileId}`);
  });

  it('validates: name required, unknown order 404, unknown template 404', async () => {
    const { agent } = await adminAgent(t.app);
    const noName = await agent.post('/api/admin/generate-card', { customerData: { fullName: '' } });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().errors['customerData.fullName']).toBeTruthy();
    expect((await agent.post('/api/admin/generate-card', { customerData: { fullName: 'A' }, orderId: 99999999 })).statusCode).toBe(404);
    expect((await agent.post('/api/admin/generate-card', { customerData: { fullName: 'A' }, templateId: 1 })).statusCode).toBe(404);
    expect((await agent.post('/api/admin/generate-card', { customerData: { fullName: 'A' }, format: 'png' })).statusCode).toBe(400);
  });
});

describe('POST /api/svg-files (template manager save)', () => {
  it('401 signed out, 403 non-admin, nothing changes', async () => {
    const body = { templateId: 15, folder: 'minimal', updates: { back: SVG('<rect width="10" height="10"/>') } };
    expect((await new Agent(t.app).post('/api/svg-files', body)).statusCode).toBe(401);
    const { agent } = await signedInAgent(t.app);
    expect((await agent.post('/api/svg-files', body)).statusCode).toBe(403);
    const [row] = await t.app.ctx.db.select().from(templates).where(eq(templates.id, 15));
    expect(row.backSvg).toBe(BUILTIN_TEMPLATES[0].back);
  });

  it('a replaced back shows everywhere at once: file, list, thumbnail, preview, generated cards', async () => {
    const { agent } = await adminAgent(t.app);
    const before = (await t.app.inject({ method: 'GET', url: '/api/template-thumbnail/18/back' })) as any;
    const newBack = SVG(
      '<rect width="1050" height="600" fill="#000"/><text data-field="fullName" x="80" y="120" font-family="Inter" font-size="40" fill="#fff">Name</text>' +
        '<text x="80" y="200" font-family="Inter" font-size="30" fill="#fff">NEW BACK DESIGN</text><g data-slot="qr" data-x="700" data-y="200" data-size="240"></g>' +
        // a replacement keeps every field the live back shows (issue 20)
        ['email', 'phoneNumber', 'website', 'linkedinUrl', 'address', 'profileUrl']
          .map((f, i) => `<text data-field="${f}" x="80" y="${260 + i * 40}" font-family="Inter" font-size="22" fill="#fff">${f}</text>`)
          .join(''),
    );
    const res = await agent.post('/api/svg-files', { templateId: 18, folder: 'modern', updates: { back: newBack }, notes: 'Spring refresh' });
    expect(res.statusCode, res.body).toBe(200);
    const version = res.json().template.version;
    expect(version).toBeGreaterThan(1);

    const file = await t.app.inject({ method: 'GET', url: '/templates/svg/modern/back.svg' });
    expect(file.body).toContain('NEW BACK DESIGN');
    const list = (await t.app.inject({ method: 'GET', url: '/api/svg-templates' })).json();
    expect(list.find((x: any) => x.id === 18).back).toContain('NEW BACK DESIGN');
    expect(list.find((x: any) => x.id === 18).version).toBe(version);
    const thumb = await t.app.inject({ method: 'GET', url: '/api/template-thumbnail/18/back', headers: { 'if-none-match': String(before.headers.etag) } });
    expect(thumb.statusCode).toBe(200); // old ETag no longer matches
    expect(thumb.headers.etag).not.toBe(before.headers.etag);
    expect((await t.app.inject({ method: 'GET', url: '/api/template-preview/18/back' })).body).toContain('NEW BACK DESIGN');

    const { agent: user } = await signedInAgent(t.app);
    const pid = await withProfile(user);
    const gen = await user.post('/api/generate-card', { templateId: 18, format: 'svg' });
    const back = Buffer.from(gen.json().back.data, 'base64').toString();
    expect(back).toContain('NEW BACK DESIGN');
    const jpeg = await user.post('/api/generate-card', { templateId: 18, format: 'jpeg' });
    expect(await decodeQrImage(Buffer.from(jpeg.json().back.data, 'base64'))).toBe(`http://localhost:80/p/${pid}`);
    // the front was left alone; the notes were kept
    const [row] = await t.app.ctx.db.select().from(templates).where(eq(templates.id, 18));
    expect(row.frontSvg).toBe(BUILTIN_TEMPLATES[3].front);
    expect(row.notes).toBe('Spring refresh');
  });

  it('stores a script-laden SVG clean', async () => {
    const { agent } = await adminAgent(t.app);
    const dirty = SVG(
      '<script>alert(1)</script><rect width="10" height="10" onclick="alert(2)"/><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>' +
        '<a href="javascript:alert(3)"><text x="1" y="20">link</text></a><image href="https://evil.example/x.png"/><style>@import url(https://evil.example/a.css);</style>' +
        '<rect fill="url(https://evil.example/p)" width="5" height="5"/>' +
        // the fields of the live front, which a replacement must keep (issue 20)
        BUILTIN_TEMPLATES.find((x) => x.folder === 'minimal')!.front.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, ''),
    );
    const res = await agent.post('/api/svg-files', { templateId: 15, folder: 'minimal', updates: { front: dirty } });
    expect(res.statusCode).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: '/templates/svg/minimal/front.svg' });
    expect(served.body).not.toMatch(/script|onclick|foreignObject|javascript:|evil\.example|@import/i);
    expect(served.body).toContain('link');
    expect(served.headers['content-security-policy']).toBe(SANDBOX_CSP);
  });

  it('refuses malformed (400), non-SVG (400), oversized (413) files, wrong folder (400), unknown template (404); nothing written', async () => {
    const { agent } = await adminAgent(t.app);
    const [before] = await t.app.ctx.db.select().from(templates).where(eq(templates.id, 17));
    const cases: Array<[unknown, number, RegExp]> = [
      [{ templateId: 17, folder: 'simple', updates: { front: '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>' } }, 400, /could not be parsed/],
      [{ templateId: 17, folder: 'simple', updates: { front: '<html><body>hi</body></html>' } }, 400, /Please upload an SVG/],
      [{ templateId: 17, folder: 'simple', updates: { back: `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]>${SVG('')}` } }, 400, /DOCTYPE|entity/],
      [{ templateId: 17, folder: 'simple', updates: { front: SVG(`<desc>${'x'.repeat(1024 * 1024)}</desc>`) } }, 413, /too large/],
      [{ templateId: 17, folder: 'classic', updates: { front: SVG('') } }, 400, /folder/],
      [{ templateId: 17, folder: 'simple', updates: {} }, 400, /Choose a front or back/],
      [{ templateId: 17, folder: 'elsewhere', updates: { front: SVG('') } }, 400, /Unknown template folder/],
      [{ templateId: 99, folder: 'simple', updates: { front: SVG('') } }, 404, /Template not found/],
    ];
    for (const [body, status, msg] of cases) {
      const res = await agent.post('/api/svg-files', body);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(status);
      expect(res.json().message).toMatch(msg);
    }
    const bad = await agent.post('/api/svg-files', { templateId: 17, folder: 'simple', updates: { front: SVG(''), back: '<nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors['updates.back']).toBeTruthy();
    const [after] = await t.app.ctx.db.select().from(templates).where(eq(templates.id, 17));
    expect(after.version).toBe(before.version);
    expect(after.frontSvg).toBe(before.frontSvg);
  });

  it('a template whose files are missing answers Missing SVG file(s)', async () => {
    await t.app.ctx.db.insert(templates).values({ id: 90, name: 'Draft', folder: 'draft-folder', frontSvg: null, backSvg: null });
    const res = await t.app.inject({ method: 'GET', url: '/api/template-preview/90/front' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Missing SVG file(s)');
    const list = (await t.app.inject({ method: 'GET', url: '/api/svg-templates' })).json();
    expect(list.find((x: any) => x.id === 90).front).toBeNull();
    await t.app.ctx.db.delete(templates).where(eq(templates.id, 90));
  });
});

describe('thumbnails drawn at start-up', () => {
  it('every template side is drawn once in the background, and its request then needs no render', async () => {
    const fresh = await createTestApp();
    try {
      const ids = BUILTIN_TEMPLATES.map((b) => b.id);
      for (const id of ids) expect(await cachedThumbnail(fresh.app.ctx, id, 'front')).toBeNull();
      expect(await warmTemplateThumbnails(fresh.app.ctx)).toBe(ids.length * 2);
      for (const id of ids) {
        for (const side of ['front', 'back'] as const) {
          const kept = await cachedThumbnail(fresh.app.ctx, id, side);
          expect(kept?.type).toBe('image/jpeg');
          const res = await fresh.app.inject({ method: 'GET', url: `/api/template-thumbnail/${id}/${side}` });
          expect(res.statusCode).toBe(200);
          expect(res.headers.etag).toBe(kept!.etag);
        }
      }
    } finally {
      await fresh.close();
    }
  });
});
