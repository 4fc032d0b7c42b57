// The worker pool's entry when the server runs from TypeScript source (Vitest, tsx): a worker thread
// does not inherit the parent's TypeScript loader, so this loads src/server/worker.ts through tsx's
// API. The built server uses dist/server/worker.js instead (src/server/infra/worker-pool.ts).
import { tsImport } from 'tsx/esm/api';

const mod = await tsImport('../src/server/worker.ts', import.meta.url);
export const { run } = mod;
