import ts from 'typescript';

/**
 * Vite plugin (decision 34-04): in the web's bundles an endpoint contract
 * (`src/shared/contracts/<x>.ts`) keeps only what a call needs (method, path, access, scopes, an
 * upload's field); its zod schemas and their imports are left out, so a page that calls an
 * endpoint does not load zod. The types the web reads from the contracts come from the source.
 */
export function webContracts() {
  const CONTRACT = /[\\/]src[\\/]shared[\\/]contracts[\\/](?!endpoint\.ts$|index\.ts$)[a-z-]+\.ts$/;
  const KEEP = new Set(['method', 'path', 'access', 'scopes']);
  return {
    name: 'web-contracts',
    enforce: 'pre',
    transform(code, id) {
      if (!CONTRACT.test(id.split('?')[0])) return null;
      const sf = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const cuts = [];
      const visit = (node) => {
        if (ts.isImportDeclaration(node) && node.moduleSpecifier.text !== './endpoint') cuts.push([node.getFullStart(), node.getEnd()]);
        if (ts.isCallExpression(node) && node.expression.getText(sf) === 'defineEndpoint' && ts.isObjectLiteralExpression(node.arguments[0])) {
          for (const p of node.arguments[0].properties) {
            const name = p.name && ts.isIdentifier(p.name) ? p.name.text : '';
            const upload = name === 'ownBody' && ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(p.initializer) && p.initializer.properties.some((q) => q.name?.getText(sf) === 'upload');
            if (!KEEP.has(name) && !upload) cuts.push([p.getFullStart(), p.getEnd() + (code[p.getEnd()] === ',' ? 1 : 0)]);
          }
          return;
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
      let out = code;
      for (const [s, e] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, s) + out.slice(e);
      return { code: out, map: null };
    },
  };
}
