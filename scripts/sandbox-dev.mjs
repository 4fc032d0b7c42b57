// The sandbox child's entry when the server runs from TypeScript source (Vitest, tsx): a child node
// process does not know TypeScript, so this loads src/server/sandbox-worker.ts through tsx's API.
// The built server forks dist/server/sandbox-worker.js instead (src/server/infra/process-pool.ts).
import { tsImport } from 'tsx/esm/api';

// Plain JavaScript packages imported by Node itself, not through tsx's loader, which would compile
// them on its own thread at every child's first use: pdf.js's 4 MB took seconds and hundreds of MB
// there (src/server/infra/images/pdf.task.ts uses this when it is set; decision 37-05)
globalThis.__importNative = (specifier) => import(specifier);

await tsImport('../src/server/sandbox-worker.ts', import.meta.url);
