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
    // no deep-link anchors inside the operations' toggle buttons (a link in a button is a nested
    // interactive control and a 22 px target: WCAG 4.1.2 and 2.5.8)
    deepLinking: false,
    tryItOutEnabled: false,
    persistAuthorization: false,
    validatorUrl: null,
  });
  // the renderer's selects (the server list) sit in an empty label: name them (WCAG 4.1.2); its
  // tag headings are h3 right under the h1 title: outline level 2 (no skipped level)
  var label = function () {
    document.querySelectorAll('select:not([aria-label])').forEach(function (select) {
      var wrapper = select.closest('label');
      if (wrapper && wrapper.textContent.replace(select.textContent, '').trim()) return;
      select.setAttribute('aria-label', select.closest('.servers') ? 'Server' : 'Media type');
    });
    document.querySelectorAll('h3.opblock-tag:not([aria-level])').forEach(function (h) {
      h.setAttribute('aria-level', '2');
    });
  };
  new MutationObserver(label).observe(document.getElementById('api-reference'), { childList: true, subtree: true });
  label();
});
`;

/**
 * Colours the renderer draws below 4.5:1 (WCAG 1.4.3: white on light method badges, the version
 * stamp, light blue links, the green Authorize button), darkened; the dark scheme keeps its own.
 */
const DOCS_CSS = `.docs-site { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; padding: 0.75rem 20px; max-width: 1460px; margin: 0 auto; font: 14px/1.5 sans-serif; }
.docs-site a { color: #1d5fa8; text-decoration: underline; padding: 0.25rem 0; }
@media (prefers-color-scheme: dark) { .docs-site a { color: #8ab4f8; } }
@media not all and (prefers-color-scheme: dark) {
.swagger-ui .info .title small.version-stamp { background-color: #3d6b00; }
.swagger-ui .info a, .swagger-ui .info .url, .swagger-ui .info .link { color: #1d5fa8; }
.swagger-ui .btn.authorize { border-color: #1f7a52; color: #1f7a52; }
.swagger-ui .btn.authorize svg { color: #1f7a52; fill: #1f7a52; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d6fb8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1f7a52; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a5500; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c0272d; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #17715e; }
}
`;

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Metal Cards</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="stylesheet" href="/api/docs/docs.css">
</head>
<body>
<nav class="docs-site" aria-label="Site"><a href="/">&larr; Back to Metal Cards NYC</a><a href="/account">Your API tokens</a><a href="/help">Help</a></nav>
<div id="api-reference"><noscript><main>The API reference needs JavaScript. The document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</main></noscript></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

const cache = new Map<string, Buffer>();

/** One of the page's files (read once), or null for any other name. */
export function docsAsset(name: string): { body: Buffer; type: string } | null {
  if (name === 'init.js') return { body: Buffer.from(INIT_JS), type: 'text/javascript; charset=utf-8' };
  if (name === 'docs.css') return { body: Buffer.from(DOCS_CSS), type: 'text/css; charset=utf-8' };
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
