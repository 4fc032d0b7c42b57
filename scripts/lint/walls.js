// ESLint rules that hold the house's walls (docs/architecture.md, "Walls").
// Import specifiers are checked as written: every cross-folder import uses an alias
// (#shared, #server, #web, #tests), so the alias says which layer and feature it reaches.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mayImportTable } from './table-reads.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Which part of the tree a file is in: { root: 'shared'|'server'|'web'|'tests'|null, layer, feature }. */
function whereIs(file) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  let m = /^src\/(shared|server|web)\/(.*)$/.exec(rel);
  if (!m) return { root: rel.startsWith('tests/') ? 'tests' : null, rel, isTest: true };
  const [, r, rest] = m;
  m = /^features\/([^/]+)\//.exec(rest);
  const layer = rest.includes('/') ? rest.split('/')[0] : null;
  return { root: r, rel, layer, feature: m ? m[1] : null, isTest: /\.test\.tsx?$/.test(rel) };
}

/** Where an alias import points: { root, layer, feature, rest } or null for packages. */
function target(spec) {
  const m = /^#(shared|server|web|tests)\/(.*)$/.exec(spec);
  if (!m) return null;
  const [, r, rest] = m;
  const f = /^features\/([^/]+)\/(.*)$/.exec(rest);
  return { root: r, layer: rest.split('/')[0], feature: f ? f[1] : null, inFeature: f ? f[2] : null };
}

// Lower server layers that no feature code lives in and that import no feature.
const LOWER_SERVER_LAYERS = new Set(['db', 'http', 'infra', 'plugins', 'jobs']);
// Lower web layers: lib (api client, session, hooks) and components (primitives, shared pieces).
const LOWER_WEB_LAYERS = new Set(['lib', 'components']);

/** The web's walls: features import no sibling (no public-api on the web); lib and components import no feature; none of them a page or app file. */
function webWall(here, t, spec) {
  if ((here.feature || LOWER_WEB_LAYERS.has(here.layer)) && (t.layer === 'routes' || t.layer === 'app'))
    return `web/${here.feature ? `features/${here.feature}` : here.layer} imports no page or app file ("${spec}"); pages compose features, not the other way round.`;
  if (LOWER_WEB_LAYERS.has(here.layer) && t.feature)
    return `web/${here.layer} is below the features and imports none ("${spec}"); a page (web/routes) or web/app passes what it needs down.`;
  if (here.layer === 'lib' && t.layer === 'components') return `web/lib is below web/components and imports none ("${spec}").`;
  if (here.feature && t.feature && t.feature !== here.feature)
    return `web/features/${here.feature} imports no sibling feature ("${spec}"): move the shared piece down (web/lib, web/components) or let the page compose both features and pass data down.`;
  return null;
}

const walls = {
  meta: { type: 'problem', schema: [], messages: { wall: '{{why}}' } },
  create(context) {
    const here = whereIs(context.filename);
    if (!here.root) return {};
    /** Tables (decision 34-05): a feature imports tables from its own schema file, or reads what table-reads.js allows. */
    function checkTables(node, spec) {
      const m = /^#server\/db\/schema\/([a-z-]+)$/.exec(spec);
      if (!m || here.root !== 'server' || !here.feature || here.isTest) return;
      const owner = m[1];
      const report = (why) => context.report({ node: node.source, messageId: 'wall', data: { why } });
      if (owner === 'index')
        return report(`features/${here.feature} imports its tables from "#server/db/schema/${here.feature}", not the barrel ("${spec}").`);
      for (const s of node.specifiers ?? []) {
        const table = s.imported?.name ?? s.local?.name;
        if (!mayImportTable(here.feature, owner, table))
          report(
            `features/${here.feature} may not import ${table}: it belongs to ${owner === 'infra' ? 'server/infra' : `features/${owner}`} ("${spec}"); call its public-api (scripts/lint/table-reads.js lists the read-only exceptions).`,
          );
      }
    }
    function check(node, spec) {
      if (typeof spec !== 'string') return;
      const report = (why) => context.report({ node, messageId: 'wall', data: { why } });
      if (spec.startsWith('../') && !(here.root === 'tests' && /^(\.\.\/)+scripts\//.test(spec)))
        return report(`Import "${spec}": use an alias (#shared/..., #server/..., #web/...) for anything outside this folder.`);
      const t = target(spec);
      // tests may reach across the walls to set things up; the code they test may not
      if (!t || here.isTest) return;
      if (here.root === 'shared' && t.root !== 'shared') return report(`shared imports only shared ("${spec}").`);
      if (here.root === 'web' && (t.root === 'server' || t.root === 'tests')) return report(`web never imports ${t.root} ("${spec}").`);
      if (here.root === 'server' && t.root === 'web') return report(`server never imports web ("${spec}").`);
      if (here.root === 'server' && t.root === 'tests') return report(`only tests import #tests ("${spec}").`);
      if (here.root === 'web' && t.root === 'web') {
        const why = webWall(here, t, spec);
        return why ? report(why) : undefined;
      }
      if (here.root !== 'server' || t.root !== 'server') return;
      if (LOWER_SERVER_LAYERS.has(here.layer) && t.feature)
        return report(`server/${here.layer} is below the features and imports none ("${spec}"); pass what it needs in from app.ts or routes.ts.`);
      // a feature's reads.ts (its read verbs over its own tables, decision 34-07) is a leaf: no other feature
      if (here.feature && t.feature && t.feature !== here.feature && here.rel === `src/server/features/${here.feature}/reads.ts`)
        return report(`features/${here.feature}/reads.ts reads ${here.feature}'s own tables and imports no other feature ("${spec}").`);
      if (here.feature && t.feature && t.feature !== here.feature && t.inFeature !== 'public-api' && t.inFeature !== 'reads')
        return report(
          `features/${here.feature} may use features/${t.feature} only through "#server/features/${t.feature}/public-api" or its read verbs "#server/features/${t.feature}/reads" ("${spec}").`,
        );
    }
    return {
      ImportDeclaration: (n) => {
        check(n.source, n.source.value);
        checkTables(n, n.source.value);
      },
      ExportNamedDeclaration: (n) => n.source && check(n.source, n.source.value),
      ExportAllDeclaration: (n) => check(n.source, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n.source, n.source.value),
    };
  },
};

export default { rules: { walls } };
