// The embedded database's thread entry when the server runs from TypeScript source (Vitest, tsx):
// a worker thread does not inherit the parent's TypeScript loader, so this loads
// src/server/db/pglite-thread.ts through tsx's API. The built server uses dist/server/pglite-thread.js
// (src/server/db/pglite-thread-client.ts).
import { tsImport } from 'tsx/esm/api';

await tsImport('../src/server/db/pglite-thread.ts', import.meta.url);
