import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/** The reference page's files: the swagger-ui-dist renderer from our own dependencies (no CDN) and our init script. */
const RENDERER_FILES: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
};

/** Served as a file (the CSP allows no inline script): opens the renderer on our document. */
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#api-reference',
    deepLinking: true,
    tryItOutEnabled: false,
    persistAuthorization: false,
    validatorUrl: null,
  });
});
`;

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Metal Cards</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<main id="api-reference"><noscript>The API reference needs JavaScript. The document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript></main>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

const cache = new Map<string, Buffer>();

/** One of the page's files (read once), or null for any other name. */
export function docsAsset(name: string): { body: Buffer; type: string } | null {
  if (name === 'init.js') return { body: Buffer.from(INIT_JS), type: 'text/javascript; charset=utf-8' };
  // own keys only: a name like __proto__ or constructor is not one of the files
  const entry = Object.hasOwn(RENDERER_FILES, name) ? RENDERER_FILES[name] : undefined;
  if (!entry) return null;
  let body = cache.get(name);
  if (!body) {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
    body = fs.readFileSync(path.join(dir, entry.file));
    cache.set(name, body);
  }
  return { body, type: entry.type };
}
