import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isKnownPagePath } from '#shared/routes';
import { projectRoot } from '#server/infra/paths';
import { sendApiNotFound } from '#server/http/not-found';

/** Pages prerendered by the build (scripts/build-web.mjs): URL path -> file under dist/web/prerender. */
const PRERENDERED: Record<string, string> = { '/': 'home.html' };

/**
 * Serves the built React client (dist/web): hashed assets cached for a year, index.html for every
 * page route, and for a prerendered page (the home page) its HTML, which the client hydrates.
 */
export async function registerSpa(app: FastifyInstance, opts: { webDir?: string } = {}) {
  const webDir = opts.webDir ?? path.join(projectRoot(), 'dist', 'web');
  const indexFile = path.join(webDir, 'index.html');
  let indexHtml: string | null = null;
  const loadIndex = () => {
    if (indexHtml === null && fs.existsSync(indexFile)) indexHtml = fs.readFileSync(indexFile, 'utf8');
    return indexHtml;
  };
  const prerendered = new Map<string, string | null>();
  const loadPage = (url: string) => {
    const file = PRERENDERED[url];
    if (!file) return loadIndex();
    if (!prerendered.has(url)) {
      const full = path.join(webDir, 'prerender', file);
      prerendered.set(url, fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : null);
    }
    return prerendered.get(url) ?? loadIndex();
  };

  if (fs.existsSync(webDir)) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      index: false,
      wildcard: false,
      allowedPath: (p) => !p.endsWith('index.html') && !p.startsWith('/prerender/'),
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'public, max-age=3600');
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (url.startsWith('/api/') || url === '/api' || req.method !== 'GET') return sendApiNotFound(app, req, reply);
    const html = loadPage(url);
    if (!html) return reply.status(503).type('text/plain').send('The web client is not built yet. Run `npm run build`.');
    reply.header('cache-control', 'no-cache');
    return reply
      .status(isKnownPagePath(url) && url !== '/not-found' ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(html);
  });
}

