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
      // browser files run beside the API files (two at a time in all, maxWorkers below): each starts
      // its own server, database, data dir and Chromium, so they share nothing but the machine
      env: { TEST_DB_KIND: 'pglite' },
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
