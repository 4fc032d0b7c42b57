import { configDefaults, defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const alias = {
  '#shared': r('./src/shared'),
  '#server': r('./src/server'),
  '#web': r('./src/web'),
  '#tests': r('./tests'),
};

const unitAndApi = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/**/*.test.ts'];

// A worker keeps its loaded modules from one test file to the next (isolate: false): every file
// starts its own app, database and data dir, so nothing is shared that a test relies on, and the
// server's module graph is not evaluated again for each of the 177 files (import time in a full
// run went from about 370 s to 48 s). Decision 18-04.
const isolate = false;

const projects: any[] = [
  {
    resolve: { alias },
    test: {
      name: 'pglite',
      include: unitAndApi,
      environment: 'node',
      globalSetup: ['tests/setup/global-setup.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      env: { TEST_DB_KIND: 'pglite' },
      isolate,
    },
  },
  {
    resolve: { alias },
    test: {
      name: 'browser',
      include: ['tests/e2e/**/*.e2e.ts'],
      environment: 'node',
      globalSetup: ['tests/setup/global-setup.ts', 'tests/setup/build-web.ts'],
      testTimeout: 60_000,
      hookTimeout: 90_000,
      // expect.poll waits for the page like Playwright's own waits do (10 s), not Vitest's default
      // 1 s: on a busy two-core CI machine a gallery's first paint took over a second
      expect: { poll: { timeout: 10_000 } },
      fileParallelism: false,
      // after the unit/API files, one file at a time (a project's own group, as Vitest asks when
      // projects run with different worker counts)
      sequence: { groupOrder: 1 },
      env: { TEST_DB_KIND: 'pglite' },
      isolate,
    },
  },
];

if (process.env.TEST_DATABASE_URL) {
  projects.push({
    resolve: { alias },
    test: {
      name: 'postgres',
      // API and database tests; pure unit tests need not run twice
      include: ['src/server/**/*.test.ts', 'tests/**/*.test.ts'],
      // the type checker and linter do not depend on the database
      exclude: [...configDefaults.exclude, 'tests/build/static-checks.test.ts'],
      environment: 'node',
      globalSetup: ['tests/setup/global-setup.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      env: { TEST_DB_KIND: 'postgres' },
      isolate,
    },
  });
}

export default defineConfig({
  test: {
    projects,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
