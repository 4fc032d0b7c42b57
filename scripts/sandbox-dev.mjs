// The sandbox child's entry when the server runs from TypeScript source (Vitest, tsx): a child node
// process does not know TypeScript, so this loads src/server/sandbox-worker.ts through tsx's API.
// The built server forks dist/server/sandbox-worker.js instead (src/server/infra/process-pool.ts).
import { tsImport } from 'tsx/esm/api';

await tsImport('../src/server/sandbox-worker.ts', import.meta.url);
