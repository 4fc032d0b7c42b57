// Builds the web client (Vite -> dist/web), then prerenders the home page into
// dist/web/prerender/home.html: the server sends that for "/", so the first paint of the most
// visited page needs no JavaScript, and the browser hydrates it (src/web/main.tsx).
import { build } from 'vite';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { withNodeEnv } from './node-env.mjs';
import { precompressDir } from './precompress.mjs';

/** Pages prerendered at build time: URL path -> file under dist/web/prerender. */
export const PRERENDERED = { '/': 'home.html' };

export async function buildWeb(root, { quiet = false } = {}) {
  const configFile = path.join(root, 'vite.config.ts');
  const logLevel = quiet ? 'error' : 'info';
  // what users get, whatever NODE_ENV the caller runs under (Vitest sets "test")
  await withNodeEnv('production', async () => {
    await build({ configFile, logLevel, mode: 'production' });
    const ssrDir = path.join(root, 'dist', 'ssr');
    await build({
      configFile,
      logLevel: 'error',
      mode: 'production',
      publicDir: false,
      build: {
        ssr: 'prerender.tsx',
        outDir: ssrDir,
        emptyOutDir: true,
        manifest: false,
        copyPublicDir: false,
        rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
      },
    });
    const mod = await import(`${pathToFileURL(path.join(ssrDir, 'prerender.mjs')).href}?t=${Date.now()}`);
    const webDir = path.join(root, 'dist', 'web');
    // the latin Inter file is wanted by every page's first paint (src/web/fonts.css): preload it
    const shell = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8').replace('</head>', `${fontPreload(webDir)}</head>`);
    const outDir = path.join(webDir, 'prerender');
    fs.mkdirSync(outDir, { recursive: true });
    for (const [pathname, file] of Object.entries(PRERENDERED)) {
      const body = await mod.prerenderPage(pathname);
      const html = shell.replace('<div id="root"></div>', `<div id="root" data-prerendered="${pathname}">${body}</div>`);
      if (!html.includes('data-prerendered')) throw new Error('prerender: no <div id="root"></div> in dist/web/index.html');
      fs.writeFileSync(path.join(outDir, file), html);
    }
    // every other page is the empty shell: its application chunk downloads beside the entry
    fs.writeFileSync(path.join(webDir, 'index.html'), shell.replace('</head>', `${modulePreloads(webDir, 'boot.tsx')}</head>`));
    // last: brotli and gzip copies of every text file written above (the server sends those)
    const packed = await precompressDir(webDir);
    if (!quiet) console.log(`precompressed ${packed.files} files: ${packed.bytesIn} bytes -> brotli ${packed.brBytes}, gzip ${packed.gzBytes}`);
  });
}

function fontPreload(webDir) {
  const font = fs.readdirSync(path.join(webDir, 'assets')).find((f) => /^inter-latin-wght-normal-[\w-]+\.woff2$/.test(f));
  if (!font) throw new Error('build-web: the latin Inter font is not in dist/web/assets');
  return `<link rel="preload" as="font" type="font/woff2" crossorigin href="/assets/${font}">`;
}

/** `<link rel="modulepreload">` for a dynamically imported module of the client and its imports (not the entry's). */
function modulePreloads(webDir, source) {
  const manifest = JSON.parse(fs.readFileSync(path.join(webDir, '.vite', 'manifest.json'), 'utf8'));
  // a dynamic entry is keyed by its source, or by its chunk when Rollup gave it no facade module
  const name = path.basename(source).replace(/\.[jt]sx?$/, '');
  const key = manifest[source] ? source : Object.keys(manifest).find((k) => manifest[k].isDynamicEntry && manifest[k].name === name);
  if (!key) throw new Error(`build-web: ${source} is not in the Vite manifest`);
  const files = new Set();
  const walk = (k) => {
    const chunk = manifest[k];
    if (!chunk || chunk.isEntry || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const i of chunk.imports ?? []) walk(i);
  };
  walk(key);
  return [...files].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
}
