import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { uploadAs } from '#tests/helpers/multipart';
import { orderInput, pngImage, shippingAddressInput, uploadArtworkFile } from '#tests/helpers/orders';
import { files, templates } from '#server/db/schema/index';
import { NOT_YOUR_FILE } from '#server/infra/file-ownership';

/**
 * Issue 19, items 3 and 6: a `/files/...` URL in a body must be the caller's own file (a signed-out
 * upload belongs to its own token), deleting an account deletes only its own files, and odd paths
 * and undrawable templates answer 4xx, never 500.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t.close();
});

let ipSeq = 0;
const newIp = () => `198.51.100.${++ipSeq % 250}`;

async function uploadLogo(agent: Agent): Promise<string> {
  const res = await uploadAs(t.app, agent, '/api/upload/logo', 'logoImage', await pngImage(120, 60), { filename: 'logo.png', contentType: 'image/png' });
  expect(res.statusCode).toBe(201);
  return res.json().url;
}
async function fileExists(url: string) {
  const key = url.slice('/files/'.length);
  const [row] = await t.app.ctx.db.select({ key: files.key }).from(files).where(eq(files.key, key));
  return !!row && !!(await t.app.ctx.storage.get(key));
}

const design = (logoUrl?: string) => ({
  templateId: 17,
  cardType: 'standard',
  customerProfile: {
    fullName: 'Mallory Thief',
    jobTitle: 'Thief',
    companyName: 'Thieves Inc',
    email: 'mallory@example.com',
    phoneNumber: '+1 212 555 0199',
    address: '',
    website: '',
    linkedinUrl: '',
    ...(logoUrl ? { logoUrl } : {}),
  },
  shippingAddress: shippingAddressInput(),
});

describe('files are used only by their owner (issue 19.3)', () => {
  it("submit-for-review refuses another user's logo and renders nothing", async () => {
    const victim = await signedInAgent(t.app);
    const logo = await uploadLogo(victim.agent);
    const thief = await signedInAgent(t.app);
    const before = Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from cards`)) as any).rows[0].n);
    const res = await thief.agent.post('/api/cards/submit-for-review', design(logo));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors['customerProfile.logoUrl']).toBe(NOT_YOUR_FILE);
    expect(Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from cards`)) as any).rows[0].n)).toBe(before);
    // the owner may use it
    const own = await victim.agent.post('/api/cards/submit-for-review', design(logo));
    expect(own.statusCode).toBeLessThan(300);
  });

  it("template-customize refuses another user's logo (signed in or not), and a profile refuses it too", async () => {
    const victim = await signedInAgent(t.app);
    const logo = await uploadLogo(victim.agent);
    const body = { fullName: 'Mallory', logoUrl: logo };
    const thief = await signedInAgent(t.app);
    expect((await thief.agent.post('/api/template-customize/17/front', body)).statusCode).toBe(400);
    expect((await new Agent(t.app).post('/api/template-customize/17/front', body)).statusCode).toBe(400);
    expect((await victim.agent.post('/api/template-customize/17/front', body)).statusCode).toBe(200);
    expect((await thief.agent.post('/api/profile', { fullName: 'Mallory', logoUrl: logo })).statusCode).toBe(400);
  });

  it('a signed-out artwork belongs to its upload token', async () => {
    const up = await uploadArtworkFile(t.app, { name: 'art.png', type: 'image/png', data: await pngImage() }, newIp());
    expect(up.statusCode).toBe(201);
    const [{ url, uploadToken }] = up.json();
    expect(uploadToken).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    const [row] = await t.app.ctx.db.select().from(files).where(eq(files.key, url.slice(7)));
    expect(row.ownerTokenHash).toBeTruthy();
    expect(row.ownerTokenHash).not.toContain(uploadToken);

    // without the token, with a wrong one, or signed in as someone else: the same "not found" answer
    const without = await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput({ artworkUrl: url }), remoteAddress: newIp() });
    expect(without.statusCode).toBe(400);
    expect(without.json().errors.artworkUrl).toBe('Artwork not found. Please upload it again.');
    const wrong = await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput({ artworkUrl: url, artworkToken: 'x'.repeat(32) }), remoteAddress: newIp() });
    expect(wrong.statusCode).toBe(400);
    const stranger = await signedInAgent(t.app);
    expect((await stranger.agent.post('/api/order', orderInput({ artworkUrl: url }))).statusCode).toBe(400);

    // with its token (flat body or the spec's payload): accepted
    const ok = await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput({ artworkUrl: url, artworkToken: uploadToken }), remoteAddress: newIp() });
    expect(ok.statusCode).toBe(201);
  });

  it("a signed-in user's artwork is theirs only", async () => {
    const owner = await signedInAgent(t.app);
    const up = await uploadAs(t.app, owner.agent, '/api/upload/artwork', 'artwork', await pngImage(), { filename: 'a.png', contentType: 'image/png' });
    expect(up.statusCode).toBe(201);
    const [{ url, uploadToken }] = up.json();
    expect(uploadToken).toBeUndefined();
    const thief = await signedInAgent(t.app);
    expect((await thief.agent.post('/api/order', orderInput({ artworkUrl: url }))).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput({ artworkUrl: url }), remoteAddress: newIp() })).statusCode).toBe(400);
    expect((await owner.agent.post('/api/order', orderInput({ artworkUrl: url }))).statusCode).toBe(201);
  });

  it("deleting an account never deletes another customer's file", async () => {
    // the victim ordered signed out with their artwork; the thief cannot reference it any more, and
    // even a reference planted in the thief's records is not enough for the thief's deletion to remove it
    const up = await uploadArtworkFile(t.app, { name: 'art.png', type: 'image/png', data: await pngImage() }, newIp());
    const [{ url, uploadToken }] = up.json();
    expect((await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput({ artworkUrl: url, artworkToken: uploadToken }), remoteAddress: newIp() })).statusCode).toBe(201);
    const victimLogoOwner = await signedInAgent(t.app);
    const logo = await uploadLogo(victimLogoOwner.agent);

    const thief = await signedInAgent(t.app);
    expect((await thief.agent.post('/api/order', orderInput({ artworkUrl: url }))).statusCode).toBe(400);
    const placed = await thief.agent.post('/api/order', orderInput({ email: thief.input.email }));
    expect(placed.statusCode).toBe(201);
    await t.app.ctx.db.execute(sql`update orders set artwork_url = ${url} where user_id = ${thief.user.id}`);
    expect((await thief.agent.post('/api/profile', { fullName: 'Mallory' })).statusCode).toBe(201);
    await t.app.ctx.db.execute(sql`update profiles set logo_url = ${logo} where user_id = ${thief.user.id}`);
    const own = await uploadLogo(thief.agent);

    const del = await thief.agent.request('DELETE', '/api/account', { password: thief.input.password });
    expect(del.statusCode).toBe(200);
    expect(await fileExists(url)).toBe(true);
    expect(await fileExists(logo)).toBe(true);
    expect(await fileExists(own)).toBe(false);
  });

  it('a signed-in order with a token-owned artwork makes the account its owner', async () => {
    const up = await uploadArtworkFile(t.app, { name: 'art.png', type: 'image/png', data: await pngImage() }, newIp());
    const [{ url, uploadToken }] = up.json();
    const buyer = await signedInAgent(t.app);
    expect((await buyer.agent.post('/api/order', orderInput({ artworkUrl: url, artworkToken: uploadToken }))).statusCode).toBe(201);
    const [row] = await t.app.ctx.db.select().from(files).where(eq(files.key, url.slice(7)));
    expect(row.userId).toBe(buyer.user.id);
    expect((await buyer.agent.request('DELETE', '/api/account', { password: buyer.input.password })).statusCode).toBe(200);
    expect(await fileExists(url)).toBe(false);
  });
});

describe('no 500 on odd paths (issue 19.6)', () => {
  it('folders of the file store answer 404', async () => {
    const signed = await signedInAgent(t.app);
    await uploadLogo(signed.agent); // makes uploads/{year}/ exist on disk
    const year = new Date().getUTCFullYear();
    for (const path of ['/files/uploads', `/files/uploads/${year}`, `/files/uploads/${year}/`, '/files/', '/files/uploads/', `/files/uploads/${year}/x.png/y`]) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(404);
    }
  });

  it('a template with 18 levels of nested <use> answers a clear 4xx thumbnail, not 500', async () => {
    let defs = '<g id="l0"><rect width="10" height="10" fill="#fff"/></g>';
    for (let i = 1; i <= 18; i++) defs += `<g id="l${i}"><use href="#l${i - 1}"/><use href="#l${i - 1}" x="1"/><use href="#l${i - 1}" y="1"/></g>`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1050" height="600" viewBox="0 0 1050 600"><defs>${defs}</defs><use href="#l18"/></svg>`;
    await t.app.ctx.db.update(templates).set({ frontSvg: svg, version: sql`${templates.version} + 1` }).where(eq(templates.id, 15));
    const res = await t.app.inject({ method: 'GET', url: '/api/template-thumbnail/15/front' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().message).toMatch(/cannot be drawn|too complex/i);
  });
});
