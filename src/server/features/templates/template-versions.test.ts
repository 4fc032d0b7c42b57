import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { templates, templateVersions } from '#server/db/schema/index';
import { BUILTIN_TEMPLATES } from '#shared/templates/builtin';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

const minimal = BUILTIN_TEMPLATES.find((x) => x.folder === 'minimal')!;
const TEN_BY_TEN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';
const templateRow = async () => (await t.app.ctx.db.select().from(templates).where(eq(templates.id, minimal.id)))[0];

describe('the SVG template manager keeps versions, checks replacements and rolls back', () => {
  it('refuses a file without the template fields; previews without saving; saves a version; rolls back as a new version', async () => {
    const admin = await adminAgent(t.app);
    const start = await templateRow();

    // a 10x10 rectangle would blank every customer's card: refused, nothing written
    const rect = await admin.agent.post('/api/svg-files', { templateId: minimal.id, folder: 'minimal', updates: { front: TEN_BY_TEN } });
    expect(rect.statusCode).toBe(400);
    expect(rect.json().errors['updates.front']).toContain("missing the template's fields");
    expect(rect.json().errors['updates.front']).toContain('fullName');
    expect((await templateRow()).version).toBe(start.version);
    expect((await admin.agent.post('/api/svg-files/preview', { templateId: minimal.id, folder: 'minimal', updates: { front: TEN_BY_TEN } })).statusCode).toBe(400);

    // a real replacement: the same design with a different tone of the name
    const replacement = minimal.front.replace('font-weight="300"', 'font-weight="400"');
    const preview = await admin.agent.post('/api/svg-files/preview', { templateId: minimal.id, folder: 'minimal', updates: { front: replacement } });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().front).toMatch(/^data:image\/png;base64,/);
    expect(preview.json().fields).toContain('fullName');
    expect((await templateRow()).version).toBe(start.version);

    const saved = await admin.agent.post('/api/svg-files', { templateId: minimal.id, folder: 'minimal', updates: { front: replacement }, notes: 'Heavier name' });
    expect(saved.statusCode, saved.body).toBe(200);
    const v2 = saved.json().template.version;
    expect(v2).toBe(start.version + 1);

    const list = await admin.agent.get(`/api/svg-files/${minimal.id}/versions`);
    expect(list.statusCode).toBe(200);
    const versions = list.json().versions as Array<{ version: number; current: boolean; notes: string | null; createdBy: string | null }>;
    expect(versions.map((v) => v.version)).toEqual([v2, start.version]);
    expect(versions[0]).toMatchObject({ current: true, notes: 'Heavier name', createdBy: admin.user.username });

    // back to the first version: a new version with its files; history kept
    const back = await admin.agent.post(`/api/svg-files/${minimal.id}/rollback`, { version: start.version });
    expect(back.statusCode, back.body).toBe(200);
    const now = await templateRow();
    expect(now.version).toBe(v2 + 1);
    expect(now.frontSvg).toBe(start.frontSvg);
    expect(await t.app.ctx.db.select().from(templateVersions).where(eq(templateVersions.templateId, minimal.id))).toHaveLength(3);
    // the public file follows at once
    const served = await t.app.inject({ method: 'GET', url: '/templates/svg/minimal/front.svg' });
    expect(served.body).toBe(start.frontSvg);

    expect((await admin.agent.post(`/api/svg-files/${minimal.id}/rollback`, { version: 999 })).statusCode).toBe(404);
    expect((await admin.agent.post(`/api/svg-files/${minimal.id}/rollback`, { version: now.version })).statusCode).toBe(400);
    expect((await admin.agent.post(`/api/svg-files/${minimal.id}/rollback`, { version: 'x' })).statusCode).toBe(400);
  });

  it('is for staff only', async () => {
    const customer = await signedInAgent(t.app);
    for (const agent of [customer.agent, new Agent(t.app)]) {
      expect([401, 403]).toContain((await agent.get(`/api/svg-files/${minimal.id}/versions`)).statusCode);
      expect([401, 403]).toContain((await agent.post(`/api/svg-files/${minimal.id}/rollback`, { version: 1 })).statusCode);
      expect([401, 403]).toContain((await agent.post('/api/svg-files/preview', { templateId: minimal.id, folder: 'minimal', updates: { front: minimal.front } })).statusCode);
    }
  });
});
