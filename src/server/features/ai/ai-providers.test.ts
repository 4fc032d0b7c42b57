import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, type TestApp, type Agent } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { uploadAs } from '#tests/helpers/multipart';
import { logoImage, rgbaAt } from '#tests/helpers/ai-images';
import { startChatStandin, startPhotoroomStandin, type ChatStandin, type PhotoroomStandin } from '#tests/helpers/ai-standins';

/** The optional providers, against local stand-ins of the OpenAI-compatible API and PhotoRoom. */

const TIMEOUT_MS = 600;
let chat: ChatStandin;
let photoroom: PhotoroomStandin;
let t: TestApp;

beforeAll(async () => {
  chat = await startChatStandin();
  photoroom = await startPhotoroomStandin();
  t = await createTestApp({
    seed: false,
    env: {
      AI_BASE_URL: chat.baseUrl,
      AI_API_KEY: chat.apiKey,
      AI_MODEL: 'standin-model',
      AI_TIMEOUT_MS: String(TIMEOUT_MS),
      PHOTOROOM_API_KEY: photoroom.apiKey,
      PHOTOROOM_API_URL: photoroom.url,
      RATE_LIMITS: 'off',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await chat?.close();
  await photoroom?.close();
});

const brief = { companyName: 'Harbor Legal', industry: 'Legal', role: 'Attorney', targetAudience: 'small businesses', brandPersonality: 'Trustworthy', existingColors: ['#1B2A4A'] };
const modelAnswer = {
  colorPalette: [
    { hex: '#1B2A4A', role: 'primary' },
    { hex: '#8A6D3B', role: 'accent' },
    { hex: '#0B0B0C', role: 'background' },
    { hex: '#2A2D33', role: 'surface' },
    { hex: '#F5F3EE', role: 'text' },
  ],
  fontRecommendations: [
    { family: 'Playfair Display', use: 'Name', reason: 'A serif with gravitas for a law practice.' },
    { family: 'Inter', use: 'Details', reason: 'Clear at small sizes.' },
  ],
  layoutSuggestions: [
    { templateId: 16, description: 'Centred and formal.' },
    { templateId: '15', description: 'Quiet and senior.' },
  ],
  industryTips: ['List your bar admissions.', 'Give a direct dial.'],
  brandingAdvice: ['Use navy and gold only.', 'Keep the firm name exact.'],
};

async function agentFor(): Promise<Agent> {
  return (await signedInAgent(t.app)).agent;
}

describe('OpenAI-compatible model', () => {
  it('is used for suggestions when configured: JSON checked, figures computed by us', async () => {
    chat.behaviour = { kind: 'reply', content: JSON.stringify(modelAnswer) };
    chat.requests.length = 0;
    const res = await (await agentFor()).post('/api/ai/design-suggestions', brief);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.engine).toBe('model');
    expect(body.colorPalette.map((c: any) => c.hex)).toEqual(modelAnswer.colorPalette.map((c) => c.hex));
    // contrast figures are ours, not the model's
    expect(body.colorPalette[4]).toMatchObject({ role: 'text', contrastOnBlack: expect.any(Number), name: expect.any(String) });
    expect(body.layoutSuggestions.map((l: any) => l.templateId)).toEqual([16, 15]);
    expect(body.layoutSuggestions[0].templateName).toBe('Classic');
    expect(body.fontRecommendations[0].weights.length).toBeGreaterThan(0);
    expect(body.industryTips).toEqual(modelAnswer.industryTips);
    // what we sent
    expect(chat.requests).toHaveLength(1);
    const req = chat.requests[0];
    expect(req.authorization).toBe(`Bearer ${chat.apiKey}`);
    expect(req.body.model).toBe('standin-model');
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    expect(req.body.messages[0].role).toBe('system');
    expect(req.body.messages[0].content).toContain('Playfair Display');
    expect(req.body.messages[1].content).toContain('Harbor Legal');
  });

  it('accepts JSON wrapped in a code fence', async () => {
    chat.behaviour = { kind: 'reply', content: '```json\n' + JSON.stringify(modelAnswer) + '\n```' };
    const res = await (await agentFor()).post('/api/ai/design-suggestions', brief);
    expect(res.json().engine).toBe('model');
  });

  const fallbacks: Array<[string, ChatStandin['behaviour']]> = [
    ['a reply that is not JSON', { kind: 'reply', content: 'Sure! Here are some ideas for your card...' }],
    ['JSON of the wrong shape', { kind: 'reply', content: JSON.stringify({ palette: ['blue'] }) }],
    ['a font the product does not bundle', { kind: 'reply', content: JSON.stringify({ ...modelAnswer, fontRecommendations: [{ family: 'Comic Sans MS', use: 'Name', reason: 'fun' }] }) }],
    ['a template that does not exist', { kind: 'reply', content: JSON.stringify({ ...modelAnswer, layoutSuggestions: [{ templateId: 19, description: 'x' }] }) }],
    ['an invalid colour', { kind: 'reply', content: JSON.stringify({ ...modelAnswer, colorPalette: [...modelAnswer.colorPalette, { hex: 'navy', role: 'secondary' }] }) }],
    ['HTTP 500', { kind: 'http', status: 500 }],
    ['HTTP 429', { kind: 'http', status: 429, body: { error: { message: 'Rate limit reached', type: 'requests' } } }],
  ];
  for (const [name, behaviour] of fallbacks) {
    it(`falls back to the built-in engine on ${name}`, async () => {
      chat.behaviour = behaviour;
      const res = await (await agentFor()).post('/api/ai/design-suggestions', brief);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.engine).toBe('built-in');
      expect(body.colorPalette[0].hex).toBe('#1B2A4A');
      expect(body.industryTips.join(' ')).toMatch(/bar admissions|firm name/);
    });
  }

  it('falls back after the timeout, without waiting for the slow model', async () => {
    chat.behaviour = { kind: 'delay', ms: TIMEOUT_MS * 5, content: JSON.stringify(modelAnswer) };
    const started = Date.now();
    const res = await (await agentFor()).post('/api/ai/design-suggestions', brief);
    const ms = Date.now() - started;
    expect(res.statusCode).toBe(200);
    expect(res.json().engine).toBe('built-in');
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS * 4);
  });

  it('writes the feedback answer while the findings stay measured', async () => {
    chat.requests.length = 0;
    chat.behaviour = { kind: 'reply', content: JSON.stringify({ answer: 'Your grey text (2.13:1) is too faint: switch to white.' }) };
    const design = { template: 17, colors: { background: '#222222', text: '#555555' }, fonts: ['Inter'] };
    const res = await (await agentFor()).post('/api/ai/design-feedback', { currentDesign: design, userQuestion: 'Can people read it?' });
    const body = res.json();
    expect(body.engine).toBe('model');
    expect(body.answer).toBe('Your grey text (2.13:1) is too faint: switch to white.');
    expect(body.feedback.startsWith(body.answer)).toBe(true);
    expect(body.findings.find((f: any) => f.id === 'contrast-text').value).toBe(2.13);
    // the model saw the question and our findings
    const sent = JSON.parse(chat.requests[0].body.messages[1].content);
    expect(sent.question).toBe('Can people read it?');
    expect(sent.findings.some((f: any) => f.title === 'Text contrast is too low')).toBe(true);

    chat.behaviour = { kind: 'reply', content: JSON.stringify({ answer: '' }) };
    const fallback = await (await agentFor()).post('/api/ai/design-feedback', { currentDesign: design, userQuestion: 'Can people read it?' });
    expect(fallback.json().engine).toBe('built-in');
    expect(fallback.json().answer).toContain('2.13:1');
  });

  it('is not used for palettes (colour harmony is exact and instant)', async () => {
    chat.requests.length = 0;
    const res = await (await agentFor()).post('/api/ai/color-palette', { mood: 'Calm', industry: 'Healthcare' });
    expect(res.statusCode).toBe(200);
    expect(chat.requests).toHaveLength(0);
  });
});

describe('PhotoRoom', () => {
  const upload = async (data: Buffer) => uploadAs(t.app, await agentFor(), '/api/photoroom/remove-background', 'image', data, { filename: 'photo.jpg', contentType: 'image/jpeg' });

  it('is used when configured, with the key, and gets a copy without EXIF/GPS', async () => {
    photoroom.fault = null;
    photoroom.requests.length = 0;
    const jpeg = await sharp(await logoImage({ width: 400, height: 300, format: 'jpeg' }))
      .jpeg()
      .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'private-owner' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 44/1 0/1' } })
      .toBuffer();
    expect(jpeg.includes(Buffer.from('SecretCam'))).toBe(true);
    const res = await upload(jpeg);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.engine).toBe('photoroom');
    expect(body.processedImageUrl).toMatch(/^\/files\/ai\/.+\.png$/);
    expect(photoroom.requests).toHaveLength(1);
    const sent = photoroom.requests[0];
    expect(sent.apiKey).toBe(photoroom.apiKey);
    expect(sent.fields.format).toBe('png');
    expect(sent.image).not.toBeNull();
    expect(sent.image!.includes(Buffer.from('SecretCam'))).toBe(false);
    expect(sent.image!.includes(Buffer.from('private-owner'))).toBe(false);
    // the stand-in's cut-out (left half transparent) is what we stored
    const got = await t.app.inject({ method: 'GET', url: body.processedImageUrl });
    const png = got.rawPayload;
    expect((await rgbaAt(png, 50, 150))[3]).toBe(0);
    expect((await rgbaAt(png, 350, 10))[3]).toBe(255);
  });

  it('falls back to the local algorithm when PhotoRoom fails', async () => {
    for (const status of [402, 500]) {
      photoroom.fault = { status, detail: status === 402 ? 'Not enough credits' : 'Internal error' };
      const res = await upload(await logoImage({ width: 400, height: 300, format: 'jpeg' }));
      expect(res.statusCode).toBe(200);
      expect(res.json().engine).toBe('built-in');
      const png = (await t.app.inject({ method: 'GET', url: res.json().processedImageUrl })).rawPayload;
      expect((await rgbaAt(png, 2, 2))[3]).toBe(0);
      // the local algorithm keeps the ring on the left, unlike the stand-in
      expect((await rgbaAt(png, Math.round(400 * 0.39), Math.round(150 - 300 * 0.19)))[3]).toBe(255);
    }
    photoroom.fault = null;
  });

  it('never receives a refused file', async () => {
    photoroom.requests.length = 0;
    const res = await upload(Buffer.from('not an image at all'));
    expect(res.statusCode).toBe(415);
    expect(photoroom.requests).toHaveLength(0);
  });
});
