import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isKnownPagePath } from '#shared/routes';
import { projectRoot } from '#server/infra/paths';
import { sendApiNotFound } from '#server/http/not-found';
import { pickCoding, PrecompressedFile, sendPrecompressed, TEXT_CONTENT_TYPES } from '#server/plugins/precompressed';
import { captureAnswer, fastLaneOf, replay, type CapturedAnswer } from '#server/http/fast-lane';

/** Pages prerendered by the build (scripts/build-web.mjs): URL path -> file under dist/web/prerender. */
const PRERENDERED: Record<string, string> = { '/': 'home.html' };

/** Cache-Control of a built file: hashed assets never change; the rest may with the next release. */
const cacheControlFor = (rel: string) => (rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');

/** Text files of the build, relative with "/" (dot folders, copies, shells and prerendered pages left out). */
function builtTextFiles(webDir: string) {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (relPath !== 'prerender') walk(path.join(dir, entry.name), relPath);
      } else if (entry.isFile() && Object.hasOwn(TEXT_CONTENT_TYPES, path.extname(entry.name)) && entry.name !== 'index.html') out.push(relPath);
    }
  };
  walk(webDir, '');
  return out;
}

/**
 * Serves the built React client (dist/web): hashed assets cached for a year, index.html for every
 * page route, and for a prerendered page (the home page) its HTML, which the client hydrates.
 * Text files (scripts, styles, pages) go from memory with the build's brotli or gzip copy
 * (./precompressed.ts, decision 38-01); fonts and images are streamed by @fastify/static.
 */
export async function registerSpa(app: FastifyInstance, opts: { webDir?: string } = {}) {
  const webDir = opts.webDir ?? path.join(projectRoot(), 'dist', 'web');
  const indexFile = path.join(webDir, 'index.html');
  const tryLoad = (full: string) => {
    try {
      return new PrecompressedFile(full);
    } catch {
      return null; // not built (yet)
    }
  };
  let index: PrecompressedFile | null = null;
  const loadIndex = () => {
    if (index === null) index = tryLoad(indexFile);
    return index;
  };
  const prerendered = new Map<string, PrecompressedFile | null>();
  const loadPage = (url: string) => {
    const file = PRERENDERED[url];
    if (!file) return loadIndex();
    if (!prerendered.has(url)) {
      const full = path.join(webDir, 'prerender', file);
      prerendered.set(url, tryLoad(full));
    }
    return prerendered.get(url) ?? loadIndex();
  };

  if (fs.existsSync(webDir)) {
    const textFiles = builtTextFiles(webDir);
    const lane = fastLaneOf(app.ctx);
    for (const rel of textFiles) {
      const file = tryLoad(path.join(webDir, rel));
      if (!file) continue; // gone since the folder was read (a build running beside this server)
      const cacheControl = cacheControlFor(rel);
      // the answer per coding, as Fastify sent it the first time: later plain GETs are replayed by
      // the fast lane in front of Fastify (decision 38-05)
      const answers = new Map<string, CapturedAnswer>();
      const keep = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        const coding = String(reply.getHeader('content-encoding') ?? 'identity');
        if (lane && !answers.has(coding)) {
          const answer = captureAnswer(req, reply, payload);
          if (answer) answers.set(coding, answer);
        }
        return payload;
      };
      // GET and, through Fastify, HEAD; compressed at build time, so not again by @fastify/compress
      // (nor its request-body hook: a GET has no body)
      app.get(`/${rel}`, { compress: false, decompress: false, onSend: keep }, (req, reply) => sendPrecompressed(req, reply, file, { cacheControl }));
      lane?.exact.set(`/${rel}`, (req, res) => {
        const answer = answers.get(pickCoding(req.headers['accept-encoding'], file.codings) ?? 'identity');
        return answer ? replay(lane, req, res, answer) : false;
      });
    }
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      index: false,
      wildcard: false,
      // text files have their routes above; the compressed copies are sent by those routes only
      globIgnore: ['**/*.br', '**/*.gz', 'prerender/**', '**/index.html', ...Object.keys(TEXT_CONTENT_TYPES).map((ext) => `**/*${ext}`)],
      allowedPath: (p) => !p.endsWith('index.html') && !p.startsWith('/prerender/'),
      setHeaders(res, filePath) {
        res.header('cache-control', cacheControlFor(path.relative(webDir, filePath).split(path.sep).join('/')));
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (url.startsWith('/api/') || url === '/api' || (req.method !== 'GET' && req.method !== 'HEAD')) return sendApiNotFound(app, req, reply);
    const page = loadPage(url);
    if (!page) return reply.status(503).type('text/plain').send('The web client is not built yet. Run `npm run build`.');
    return sendPrecompressed(req, reply, page, { cacheControl: 'no-cache', status: isKnownPagePath(url) && url !== '/not-found' ? 200 : 404 });
  });
}
