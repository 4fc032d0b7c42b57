import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProcessPool, processPool } from '#server/infra/process-pool';
import { sql } from 'drizzle-orm';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { uploadAs } from '#tests/helpers/multipart';
import { busyImage, logoImage, manyPixelsPng, pngOfAtLeast, rgbaAt } from '#tests/helpers/ai-images';
import { BUNDLED_FONTS } from '#shared/fonts';
import { HEX_MESSAGE, INDUSTRIES } from '#shared/schemas/ai';

let t: TestApp;
let agent: Agent;
let userId: string;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const s = await signedInAgent(t.app);
  agent = s.agent;
  userId = s.user.id;
});
afterAll(async () => {
  await t.close();
});

const fileRows = async () => Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from files`)) as any).rows[0].n);
/** files on disk under the storage's ai/ folder */
const storedAiFiles = () => {
  const dir = path.join(t.dataDir, 'files', 'ai');
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.png')).length;
};
const removeBg = (data: Buffer, opts: { filename?: string; contentType?: string; field?: string; as?: Agent } = {}) =>
  uploadAs(t.app, opts.as ?? agent, '/api/photoroom/remove-background', opts.field ?? 'image', data, { filename: opts.filename ?? 'logo.png', contentType: opts.contentType ?? 'image/png' });

const suggestion = { companyName: 'Acme Robotics', industry: 'Technology', role: 'Senior Software Engineer', targetAudience: 'startup founders', brandPersonality: 'Innovative', existingColors: '' };
const design = {
  template: 17,
  cardType: 'standard',
  cardStyle: 'Matte',
  colors: { background: '#222222', text: '#555555', accents: [] },
  fonts: ['Inter'],
  businessInfo: { fullName: 'Ada Lovelace', jobTitle: 'Engineer' },
};

describe('access', () => {
  it('every assistant call needs a signed-in user', async () => {
    const anon = new Agent(t.app);
    for (const [url, body] of [
      ['/api/ai/design-suggestions', suggestion],
      ['/api/ai/design-feedback', { currentDesign: design, userQuestion: 'ok?' }],
      ['/api/ai/color-palette', { mood: 'Calm', industry: 'Healthcare' }],
    ] as const) {
      const res = await anon.post(url, body);
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toHaveProperty('message');
    }
    const before = await fileRows();
    const res = await removeBg(await logoImage({ width: 200, height: 150 }), { as: anon });
    expect(res.statusCode).toBe(401);
    expect(await fileRows()).toBe(before);
  });
});

describe('POST /api/ai/design-suggestions', () => {
  it('answers the suggestion fields from the built-in engine', async () => {
    const res = await agent.post('/api/ai/design-suggestions', suggestion);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['colorPalette', 'fontRecommendations', 'layoutSuggestions', 'industryTips', 'brandingAdvice', 'engine']);
    expect(body.engine).toBe('built-in');
    expect(body.colorPalette).toHaveLength(6);
    expect(body.colorPalette[0]).toMatchObject({ hex: expect.stringMatching(/^#[0-9A-F]{6}$/), role: 'primary', contrastOnWhite: expect.any(Number), contrastOnBlack: expect.any(Number) });
    for (const f of body.fontRecommendations) expect(BUNDLED_FONTS.map((b) => b.family)).toContain(f.family);
    for (const l of body.layoutSuggestions) expect([15, 16, 17, 18]).toContain(l.templateId);
    expect(body.brandingAdvice.join(' ')).toContain('Senior Software Engineer');
  });

  it('differs across industries', async () => {
    const answers = [];
    for (const industry of ['Technology', 'Legal', 'Construction']) {
      const res = await agent.post('/api/ai/design-suggestions', { ...suggestion, industry, brandPersonality: undefined });
      expect(res.statusCode).toBe(200);
      answers.push(res.json());
    }
    expect(new Set(answers.map((a) => a.industryTips[0])).size).toBe(3);
    expect(new Set(answers.map((a) => a.colorPalette[0].hex)).size).toBe(3);
  });

  it('refuses missing and invalid fields with field messages', async () => {
    const a = (await signedInAgent(t.app)).agent;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ industry: 'Technology', role: 'CEO' }, 'companyName', 'Company name is required'],
      [{ companyName: '   ', industry: 'Technology', role: 'CEO' }, 'companyName', 'Company name is required'],
      [{ companyName: 'Acme', role: 'CEO' }, 'industry', 'Industry is required'],
      [{ companyName: 'Acme', industry: 'Astrology', role: 'CEO' }, 'industry', 'Please choose an industry from the list'],
      [{ companyName: 'Acme', industry: 'Technology', role: '' }, 'role', 'Role is required'],
      [{ companyName: 'Acme', industry: 'Technology', role: 'CEO', brandPersonality: 'Grumpy' }, 'brandPersonality', 'Please choose a brand personality from the list'],
      [{ companyName: 'Acme', industry: 'Technology', role: 'CEO', existingColors: 'red, #00ff00' }, 'existingColors', `${HEX_MESSAGE} (not "red")`],
      [{ companyName: 'Acme', industry: 'Technology', role: 'CEO', admin: true }, 'admin', 'Unknown field: admin'],
      [{ companyName: 'x'.repeat(101), industry: 'Technology', role: 'CEO' }, 'companyName', 'Company name must be at most 100 characters'],
      [{ companyName: 'Acme\r\nBcc: x', industry: 'Technology', role: 'CEO' }, 'companyName', 'Please use a single line of text'],
    ];
    for (const [body, field, message] of cases) {
      const res = await a.post('/api/ai/design-suggestions', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(body)).toBe(message);
    }
  });

  it('accepts every industry of the spec', async () => {
    const a = (await signedInAgent(t.app)).agent;
    for (const industry of INDUSTRIES) {
      const res = await a.post('/api/ai/design-suggestions', { companyName: 'Acme', industry, role: 'Owner' });
      expect(res.statusCode, industry).toBe(200);
    }
  });
});

describe('POST /api/ai/color-palette', () => {
  it('defaults the base colour to #000000 and answers colours with contrast figures', async () => {
    const res = await agent.post('/api/ai/color-palette', { mood: 'Professional', industry: 'Finance' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.baseColor).toBe('#000000');
    expect(body.colors).toHaveLength(6);
    expect(body.colors.find((c: any) => c.role === 'background').hex).toBe('#000000');
    expect(body.finishes).toHaveLength(12);
    // deterministic
    const again = await agent.post('/api/ai/color-palette', { baseColor: '#000', mood: 'Professional', industry: 'Finance' });
    expect(again.json()).toEqual(body);
  });

  it('refuses wrong colour formats and missing choices', async () => {
    const a = (await signedInAgent(t.app)).agent;
    for (const baseColor of ['red', '#12345', 'rgb(0,0,0)', '#GGGGGG', '000000', 123, '#0000000', null]) {
      const res = await a.post('/api/ai/color-palette', { baseColor, mood: 'Calm', industry: 'Healthcare' });
      expect(res.statusCode, String(baseColor)).toBe(400);
      expect(res.json().errors.baseColor).toBe(HEX_MESSAGE);
    }
    const noMood = await a.post('/api/ai/color-palette', { industry: 'Healthcare' });
    expect(noMood.statusCode).toBe(400);
    expect(noMood.json().errors.mood).toBe('Mood is required');
    const noIndustry = await a.post('/api/ai/color-palette', { mood: 'Calm' });
    expect(noIndustry.json().errors.industry).toBe('Industry is required');
    const badMood = await a.post('/api/ai/color-palette', { mood: 'Sleepy', industry: 'Healthcare' });
    expect(badMood.json().errors.mood).toBe('Please choose a mood from the list');
  });
});

describe('POST /api/ai/design-feedback', () => {
  it('analyses the design and answers the question', async () => {
    // no metal chosen: the typed colours are judged as they are
    const res = await agent.post('/api/ai/design-feedback', { currentDesign: { ...design, cardType: undefined }, userQuestion: 'Is my text easy to read?' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(typeof body.feedback).toBe('string');
    expect(body.engine).toBe('built-in');
    expect(body.findings.find((f: any) => f.id === 'contrast-text')).toMatchObject({ severity: 'critical', value: 2.13 });
    expect(body.answer).toContain('2.13:1');
    expect(body.feedback).toContain('To improve:');
  });

  it('needs a non-empty question and a valid design', async () => {
    const a = (await signedInAgent(t.app)).agent;
    for (const userQuestion of [undefined, '', '   \n ']) {
      const res = await a.post('/api/ai/design-feedback', { currentDesign: design, userQuestion });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.userQuestion).toBe('Please enter a question');
    }
    const noDesign = await a.post('/api/ai/design-feedback', { userQuestion: 'Hi?' });
    expect(noDesign.statusCode).toBe(400);
    expect(noDesign.json().errors.currentDesign).toBe('Current design is required');
    const badColor = await a.post('/api/ai/design-feedback', { currentDesign: { ...design, colors: { background: 'black', text: '#FFF' } }, userQuestion: 'Hi?' });
    expect(badColor.json().errors['currentDesign.colors.background']).toBe(HEX_MESSAGE);
    const badTemplate = await a.post('/api/ai/design-feedback', { currentDesign: { ...design, template: 99 }, userQuestion: 'Hi?' });
    expect(badTemplate.statusCode).toBe(400);
    expect(badTemplate.json().errors['currentDesign.template']).toBe('Choose one of the templates');
    const tooMany = await a.post('/api/ai/design-feedback', { currentDesign: { ...design, fonts: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }, userQuestion: 'Hi?' });
    expect(tooMany.json().errors['currentDesign.fonts']).toBe('At most 6 fonts');
  });

  it('takes a template by name as well as by id', async () => {
    const res = await agent.post('/api/ai/design-feedback', { currentDesign: { template: 'Classic' }, userQuestion: 'Overall?' });
    expect(res.statusCode).toBe(200);
    expect(res.json().answer).toContain('the Classic layout');
    expect(res.json().feedback).not.toMatch(/template 16|#16/);
  });
});

describe('POST /api/photoroom/remove-background', () => {
  it('removes the background of a logo, stores a PNG with transparency and records the file', async () => {
    const before = await fileRows();
    const res = await removeBg(await logoImage({ width: 640, height: 480 }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.processedImageUrl).toMatch(/^\/files\/ai\/\d{4}\/[a-z0-9]+\.png$/);
    expect(body).toMatchObject({ width: 640, height: 480, engine: 'built-in' });
    expect(await fileRows()).toBe(before + 1);
    const key = body.processedImageUrl.slice('/files/'.length);
    const row = ((await t.app.ctx.db.execute(sql`select user_id, kind, mime_type from files where key = ${key}`)) as any).rows[0];
    expect(row).toEqual({ user_id: userId, kind: 'ai-background-removed', mime_type: 'image/png' });
    // served like every stored file; corners transparent, subject kept
    const got = await t.app.inject({ method: 'GET', url: body.processedImageUrl });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    const png = got.rawPayload;
    expect((await sharp(png).metadata()).hasAlpha).toBe(true);
    expect((await rgbaAt(png, 2, 2))[3]).toBe(0);
    expect((await rgbaAt(png, 637, 477))[3]).toBe(0);
    expect(await rgbaAt(png, Math.round(640 * 0.76), 240)).toEqual([0x1f, 0x3a, 0x93, 255]);
  });

  it('decodes the user’s image in the sandbox, not in the server process: the task gets the bytes as sent (issue 32)', async () => {
    const pool = processPool();
    const calls: Array<{ task: string; arg: unknown }> = [];
    const spy = vi.spyOn(pool, 'run').mockImplementation(function (this: typeof pool, lane, task, arg, opts) {
      calls.push({ task, arg });
      return ProcessPool.prototype.run.call(this, lane, task, arg, opts);
    } as typeof pool.run);
    try {
      const img = await logoImage({ width: 320, height: 240 });
      const res = await removeBg(img);
      expect(res.statusCode).toBe(200);
      // one task, the whole job: decode, segment and encode; what crossed is the file, not pixels
      expect(calls.map((c) => c.task)).toEqual(['removeBackground']);
      expect(Buffer.from((calls[0]!.arg as { data: Uint8Array }).data).equals(img)).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('accepts JPEG and WebP by their bytes whatever the name says', async () => {
    const jpeg = await removeBg(await logoImage({ width: 320, height: 240, format: 'jpeg', noise: 2 }), { filename: 'photo.txt', contentType: 'text/plain' });
    expect(jpeg.statusCode).toBe(200);
    const webp = await removeBg(await logoImage({ width: 320, height: 240, format: 'webp' }), { filename: 'x', contentType: 'application/octet-stream' });
    expect(webp.statusCode).toBe(200);
  });

  describe('bad input: a clear 4xx in under a second, nothing stored', () => {
    // a fresh user per case: refused uploads count against the per-user limit too
    let a: Agent;
    beforeEach(async () => {
      a = (await signedInAgent(t.app)).agent;
    });
    const refused = async (data: Buffer, status: number, message: string | RegExp, opts: Parameters<typeof removeBg>[1] = {}) => {
      const rows = await fileRows();
      const disk = storedAiFiles();
      const started = Date.now();
      const res = await removeBg(data, { as: a, ...opts });
      const ms = Date.now() - started;
      expect(res.statusCode).toBe(status);
      if (typeof message === 'string') expect(res.json().message).toBe(message);
      else expect(res.json().message).toMatch(message);
      expect(ms).toBeLessThan(1000);
      expect(await fileRows()).toBe(rows);
      expect(storedAiFiles()).toBe(disk);
    };

    it('a renamed non-image', async () => {
      await refused(Buffer.from('This is not a picture, just text renamed to logo.png\n'.repeat(20)), 415, 'Invalid file type');
      await refused(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), 415, 'Invalid file type', { filename: 'doc.png' });
    });

    it('an SVG, and a PNG header with garbage behind it', async () => {
      await refused(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'), 415, 'Invalid file type', { filename: 'logo.svg', contentType: 'image/svg+xml' });
      const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 7)]);
      await refused(fake, 415, 'Invalid file type');
    });

    it('a polyglot (image with a script appended)', async () => {
      const png = await logoImage({ width: 100, height: 80 });
      await refused(Buffer.concat([png, Buffer.from('<script>alert(1)</script>')]), 415, 'Invalid file type');
    });

    it('an 11 MB image', async () => {
      const big = await pngOfAtLeast(11 * 1024 * 1024);
      expect(big.length).toBeGreaterThan(11 * 1024 * 1024);
      await refused(big, 413, 'File too large');
    });

    it('a 50-megapixel image', async () => {
      const huge = await manyPixelsPng(8000, 6250);
      expect(huge.length).toBeLessThan(10 * 1024 * 1024);
      await refused(huge, 413, /too large/);
    });

    it('no file, an empty file, the wrong field', async () => {
      const rows = await fileRows();
      const cookie = [...a.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const none = await t.app.inject({ method: 'POST', url: '/api/photoroom/remove-background', headers: { cookie, 'content-type': 'multipart/form-data; boundary=xyz' }, payload: '--xyz--\r\n' });
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toBe('No image selected');
      const json = await a.post('/api/photoroom/remove-background', { image: 'data:image/png;base64,AAAA' });
      expect(json.statusCode).toBe(415);
      await refused(Buffer.alloc(0), 400, 'The file is empty');
      await refused(await logoImage({ width: 100, height: 80 }), 400, 'No image selected', { field: 'file' });
      expect(await fileRows()).toBe(rows);
    });

    it('a photo with no plain background', async () => {
      await refused(await busyImage(300, 200), 422, /plain background/);
    });
  });
});

describe('rate limits', () => {
  it('limits the text assistant per user with 429 and Retry-After', async () => {
    const a = (await signedInAgent(t.app)).agent;
    let last;
    for (let i = 0; i < 21; i++) last = await a.post('/api/ai/design-suggestions', { companyName: 'Acme', industry: 'Retail', role: 'Owner' });
    expect(last!.statusCode).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    // another user is not affected
    const b = (await signedInAgent(t.app)).agent;
    expect((await b.post('/api/ai/design-suggestions', { companyName: 'Acme', industry: 'Retail', role: 'Owner' })).statusCode).toBe(200);
  });
});
