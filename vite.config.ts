import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { webContracts } from './scripts/vite-web-contracts.mjs';

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: r('./src/web'),
  publicDir: r('./src/web/public'),
  // contracts without their zod schemas in the browser (decision 34-04)
  plugins: [webContracts(), react(), tailwindcss()],
  // the year the home page was prerendered in (src/web/lib/use-year.ts)
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  // #shared/... and #web/... resolve through package.json "imports" (declared there only)
  build: {
    outDir: r('./dist/web'),
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    // dist/web/.vite/manifest.json: which chunks each route loads (npm run bench reports JS per route)
    manifest: true,
  },
  server: {
    // dev: the Fastify server mounts Vite in middleware mode (scripts/dev.mjs)
  },
});
