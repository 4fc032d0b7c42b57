// The build's compression step (decision 38-01): every text file of the built client (assets, the
// shell, the prerendered pages) at least PRECOMPRESS_MIN_BYTES long gets a brotli (.br) and a gzip
// (.gz) copy beside it, compressed once at the highest levels. The server (src/server/plugins/spa.ts)
// sends the copy the browser accepts instead of compressing the same bytes on every request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Extensions of files worth compressing (text); fonts and images are compressed formats already. */
export const PRECOMPRESSED_EXTENSIONS = ['.html', '.js', '.mjs', '.css', '.svg', '.json', '.webmanifest', '.txt', '.xml', '.map', '.ico'];

/** Below this size a compressed answer saves less than its headers cost. */
export const PRECOMPRESS_MIN_BYTES = 1024;

/** Suffixes of the copies, by Content-Encoding. */
export const COPY_SUFFIX = { br: '.br', gzip: '.gz' };

/** Files under `dir` (dot folders left out, copies left out) that get compressed copies. */
export function filesToPrecompress(dir) {
  const out = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && PRECOMPRESSED_EXTENSIONS.includes(path.extname(entry.name).toLowerCase())) {
        if (fs.statSync(full).size >= PRECOMPRESS_MIN_BYTES) out.push(full);
      }
    }
  };
  walk(dir);
  return out;
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every file of `dir` that qualifies; a copy that would not
 * be smaller than the file is not written (the server then sends the file itself). Stale copies of
 * files that no longer qualify are removed. Answers the number of files compressed and the bytes.
 */
export async function precompressDir(dir) {
  const files = filesToPrecompress(dir);
  removeStaleCopies(dir, new Set(files));
  let bytesIn = 0;
  let brBytes = 0;
  let gzBytes = 0;
  // two at a time: zlib's async work runs on libuv's pool, and our machines have two cores
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const body = fs.readFileSync(file);
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      bytesIn += body.length;
      for (const [copy, suffix] of [
        [br, COPY_SUFFIX.br],
        [gz, COPY_SUFFIX.gzip],
      ]) {
        if (copy.length < body.length) {
          fs.writeFileSync(file + suffix, copy);
          if (suffix === COPY_SUFFIX.br) brBytes += copy.length;
          else gzBytes += copy.length;
        } else fs.rmSync(file + suffix, { force: true });
      }
    }
  };
  await Promise.all([worker(), worker()]);
  return { files: files.length, bytesIn, brBytes, gzBytes };
}

function removeStaleCopies(dir, keep) {
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (Object.values(COPY_SUFFIX).some((s) => full.endsWith(s)) && !keep.has(full.slice(0, full.lastIndexOf('.')))) fs.rmSync(full);
    }
  };
  walk(dir);
}
