// Is the build older than the sources? (npm start rebuilds only what is missing or stale)
import fs from 'node:fs';
import path from 'node:path';

function newest(dir) {
  let max = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) max = Math.max(max, newest(p));
    else if (!/\.test\.tsx?$/.test(e.name)) max = Math.max(max, fs.statSync(p).mtimeMs);
  }
  return max;
}

export function buildIsStale(root, stampFile = path.join(root, 'dist', '.build-stamp'), dirs = ['src', 'drizzle']) {
  if (!fs.existsSync(stampFile)) return true;
  const built = fs.statSync(stampFile).mtimeMs;
  const files = ['package.json', 'vite.config.ts', 'tsconfig.json'].map((f) => path.join(root, f)).filter((f) => fs.existsSync(f));
  const src = Math.max(...dirs.map((d) => newest(path.join(root, d))), ...files.map((f) => fs.statSync(f).mtimeMs));
  return src > built;
}
