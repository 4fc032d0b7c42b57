import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { READS_TO_MOVE } from '../../scripts/lint/table-reads.js';

/**
 * The house's walls (docs/architecture.md): the lint rule holds them file by file (it runs in
 * static-checks.test.ts over the whole tree); this file proves the rule bites, and checks what a
 * per-file rule cannot see: that features depend on each other without a cycle, and that each
 * capability carries one name in every root.
 */
const root = path.resolve(__dirname, '../..');
const featuresDir = (side: string) => path.join(root, 'src', side, 'features');
const dirs = (p: string) => (fs.existsSync(p) ? fs.readdirSync(p, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : []);

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? walk(p) : /\.(ts|tsx)$/.test(d.name) ? [p] : [];
  });
}

describe('walls', () => {
  const eslint = new ESLint({ cwd: root });
  async function wallErrors(file: string, code: string) {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return result.messages.filter((m) => m.ruleId === 'house/walls').map((m) => m.message);
  }

  it('lint refuses a sibling feature import, and allows its public-api', async () => {
    expect(await wallErrors('src/server/features/orders/x.ts', "import { a } from '#server/features/profile/profile.service';\nexport const b = a;\n")).toHaveLength(1);
    expect(await wallErrors('src/server/features/orders/x.ts', "import { a } from '#server/features/profile/public-api';\nexport const b = a;\n")).toEqual([]);
    expect(await wallErrors('src/server/features/orders/x.ts', "import { a } from './orders.service';\nexport const b = a;\n")).toEqual([]);
  });

  it("lint allows an owner's read verbs (reads.ts, decision 34-07), a leaf that imports no other feature", async () => {
    const imp = (spec: string) => `import { a } from '${spec}';\nexport const b = a;\n`;
    expect(await wallErrors('src/server/features/orders/x.ts', imp('#server/features/team/reads'))).toEqual([]);
    expect(await wallErrors('src/server/features/team/reads.ts', imp('#server/features/orders/public-api'))).toHaveLength(1);
    expect(await wallErrors('src/server/features/team/reads.ts', imp('#server/features/orders/reads'))).toHaveLength(1);
    expect(await wallErrors('src/server/features/team/reads.ts', imp('#server/db/client'))).toEqual([]);
  });

  it('lint refuses a web sibling feature import (no public-api on the web); pages and app compose features', async () => {
    const imp = (spec: string) => `import { a } from '${spec}';\nexport const b = a;\n`;
    expect(await wallErrors('src/web/features/orders/x.tsx', imp('#web/features/profile/api'))).toHaveLength(1);
    expect(await wallErrors('src/web/features/orders/x.tsx', imp('#web/features/profile/public-api'))).toHaveLength(1);
    expect(await wallErrors('src/web/features/orders/x.tsx', "export const b = () => import('#web/features/auth/api');\n")).toHaveLength(1);
    expect(await wallErrors('src/web/features/orders/x.tsx', imp('#web/features/orders/api'))).toEqual([]);
    expect(await wallErrors('src/web/features/orders/x.tsx', imp('#web/lib/session/use-auth'))).toEqual([]);
    expect(await wallErrors('src/web/routes/x.tsx', imp('#web/features/profile/api'))).toEqual([]);
    expect(await wallErrors('src/web/app/x.tsx', imp('#web/features/auth/api'))).toEqual([]);
    expect(await wallErrors('src/web/lib/x.ts', imp('#web/features/auth/api'))).toHaveLength(1);
    expect(await wallErrors('src/web/lib/x.ts', imp('#web/components/ui/button'))).toHaveLength(1);
    expect(await wallErrors('src/web/components/x.tsx', imp('#web/features/templates/api'))).toHaveLength(1);
    expect(await wallErrors('src/web/features/orders/x.tsx', imp('#web/routes/home'))).toHaveLength(1);
    expect(await wallErrors('src/web/components/x.tsx', imp('#web/app/providers'))).toHaveLength(1);
  });

  it('lint refuses web -> server, shared -> web or server, lower layers -> features, and ../ imports', async () => {
    expect(await wallErrors('src/web/routes/x.tsx', "import { a } from '#server/http/etag';\nexport const b = a;\n")).toHaveLength(1);
    expect(await wallErrors('src/shared/x.ts', "import { a } from '#web/lib/api';\nexport const b = a;\n")).toHaveLength(1);
    expect(await wallErrors('src/shared/x.ts', "import { a } from '#server/http/etag';\nexport const b = a;\n")).toHaveLength(1);
    expect(await wallErrors('src/server/infra/x.ts', "import { a } from '#server/features/orders/public-api';\nexport const b = a;\n")).toHaveLength(1);
    expect(await wallErrors('src/server/features/orders/x.ts', "import { a } from '../../http/etag';\nexport const b = a;\n")).toHaveLength(1);
  });

  it('lint lets a feature import only its own tables (decision 34-05), plus the read-only allow-list', async () => {
    const imp = (spec: string, names = 'orders') => `import { ${names} } from '${spec}';\nexport const b = ${names.split(',')[0]};\n`;
    // another feature's table: refused; its own: allowed; the barrel: refused for features, allowed below them
    expect(await wallErrors('src/server/features/profile/x.ts', imp('#server/db/schema/orders'))).toHaveLength(1);
    expect(await wallErrors('src/server/features/uploads/x.ts', imp('#server/db/schema/infra', 'files'))).toHaveLength(1);
    expect(await wallErrors('src/server/features/orders/x.ts', imp('#server/db/schema/orders'))).toEqual([]);
    expect(await wallErrors('src/server/features/orders/x.ts', imp('#server/db/schema/index'))).toHaveLength(1);
    expect(await wallErrors('src/server/infra/x.ts', imp('#server/db/schema/index', 'files'))).toEqual([]);
    expect(await wallErrors('src/server/jobs/x.ts', imp('#server/db/schema/orders'))).toEqual([]);
    // the read-only allow-list: users for everyone, staff reports, team stats (scripts/lint/table-reads.js)
    expect(await wallErrors('src/server/features/reviews/x.ts', imp('#server/db/schema/auth', 'users'))).toEqual([]);
    expect(await wallErrors('src/server/features/admin/x.ts', imp('#server/db/schema/orders'))).toEqual([]);
    expect(await wallErrors('src/server/features/team/x.ts', imp('#server/db/schema/engagement', 'cardCodes'))).toEqual([]);
    expect(await wallErrors('src/server/features/team/x.ts', imp('#server/db/schema/engagement', 'leads, cardCodes'))).toHaveLength(1);
    // tests set things up across the walls
    expect(await wallErrors('src/server/features/profile/x.test.ts', imp('#server/db/schema/index'))).toEqual([]);
  });

  it('no read left to move behind an owner: READS_TO_MOVE stays empty (scripts/lint/table-reads.js, decision 34-07)', () => {
    const pairs = Object.values(READS_TO_MOVE).reduce((n, tables) => n + tables.length, 0);
    expect(pairs, "READS_TO_MOVE grew: read through the owner's read verbs (<owner>/reads.ts) instead").toBe(0);
  });

  it('features depend on each other through public-api files, without a cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const feature of dirs(featuresDir('server'))) {
      const deps = new Set<string>();
      for (const file of walk(path.join(featuresDir('server'), feature))) {
        if (/\.test\.tsx?$/.test(file)) continue;
        // an owner's reads.ts is a leaf (it imports no feature, lint holds that): reading through it adds no edge
        for (const m of fs.readFileSync(file, 'utf8').matchAll(/from '#server\/features\/([a-z-]+)\/([^']+)'/g)) if (m[1] !== feature && m[2] !== 'reads') deps.add(m[1]);
      }
      graph.set(feature, deps);
    }
    const state = new Map<string, 'visiting' | 'done'>();
    const cycle: string[] = [];
    const visit = (f: string, trail: string[]): boolean => {
      if (state.get(f) === 'done') return false;
      if (state.get(f) === 'visiting') {
        cycle.push(...trail.slice(trail.indexOf(f)), f);
        return true;
      }
      state.set(f, 'visiting');
      for (const d of graph.get(f) ?? []) if (visit(d, [...trail, f])) return true;
      state.set(f, 'done');
      return false;
    };
    for (const f of graph.keys()) if (visit(f, [])) break;
    expect(cycle.join(' -> ')).toBe('');
  });

  it('each capability has one name: web features and shared contracts match server features', () => {
    const server = new Set(dirs(featuresDir('server')));
    // server-only capabilities with no contract of their own beyond common shapes
    const webOnlyAllowed = new Set<string>();
    for (const f of dirs(featuresDir('web'))) if (!webOnlyAllowed.has(f)) expect(server.has(f), `web/features/${f} has no server/features/${f}`).toBe(true);
    const schemaNames = fs.readdirSync(path.join(root, 'src/shared/schemas')).filter((f) => /^[a-z-]+\.ts$/.test(f)).map((f) => f.slice(0, -3));
    for (const s of schemaNames) if (s !== 'common') expect(server.has(s), `shared/schemas/${s}.ts has no server/features/${s}`).toBe(true);
    for (const f of server) expect(schemaNames.includes(f), `server/features/${f} has no shared/schemas/${f}.ts`).toBe(true);
    // shared domain folders carry a feature's name (qr is a library used by several)
    for (const d of dirs(path.join(root, 'src/shared'))) if (!['schemas', 'contracts', 'qr'].includes(d)) expect(server.has(d), `shared/${d} is named after no feature`).toBe(true);
    // endpoint contracts: one file per server feature with routes (decision 34-04)
    const contractNames = fs.readdirSync(path.join(root, 'src/shared/contracts')).filter((f) => /^[a-z-]+\.ts$/.test(f) && !['endpoint.ts', 'index.ts'].includes(f)).map((f) => f.slice(0, -3));
    for (const c of contractNames) expect(server.has(c), `shared/contracts/${c}.ts has no server/features/${c}`).toBe(true);
  });

  it('pages stay thin: a page over 150 lines says why (docs/decisions/17-01)', () => {
    const long = fs
      .readdirSync(path.join(root, 'src/web/routes'))
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => ({ f, text: fs.readFileSync(path.join(root, 'src/web/routes', f), 'utf8') }))
      .filter(({ text }) => text.split('\n').length > 150 && !/^\/\/ page-length: \S/m.test(text))
      .map(({ f }) => f);
    expect(long, 'pages over 150 lines without a "// page-length:" reason').toEqual([]);
  });
});
