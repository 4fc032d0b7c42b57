import fs from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// #shared, #server, #web and #tests resolve through package.json "imports" (declared there only).

const unitAndApi = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/**/*.test.ts'];

// A worker keeps its loaded modules from one test file to the next (isolate: false): every file
// starts its own app, database and data dir, so nothing is shared that a test relies on, and the
// server's module graph is not evaluated again for each of the 177 files (import time in a full
// run went from about 370 s to 48 s). Decision 18-04.
const isolate = false;

// every test process has a watchdog: a thread stuck in synchronous work or a heap that only grows
// ends the process within minutes and says where (tests/setup/watchdog.ts, decision 45-01)
const watchdog = 'tests/setup/test-watchdog.ts';

/**
 * Files whose bars are about CPU and time of a whole server under attack (the hostile storm, the
 * hostile classes, the process faults, the lanes, a starved render: answers within the deadline + 1 s,
 * a QR code PNG in under a second, CPU quiet after): they
 * run on their own, after the other unit and API files and before the browser files, so another
 * test file's work on the same two cores is not counted against them.
 */
/**
 * The type checker, the linter and knip (tests/build/static-checks.test.ts): in a project of their
 * own that runs last. Under npm test the checks themselves ran beside the other tests at the lowest
 * CPU priority (scripts/static-checks.mjs) and the file reads their results (decision 36-06).
 */
const staticChecks = 'tests/build/static-checks.test.ts';

const solo = [
  'tests/security/hostile-storm.test.ts',
  'tests/security/hostile-classes.test.ts',
  'tests/faults/process-faults.test.ts',
  'tests/faults/lanes.test.ts',
  'tests/faults/starved-render.test.ts',
];

/**
 * The web's component tests (Testing Library, decision 34-06): React components rendered in jsdom,
 * fetch mocked at the client's boundary; no database, no server, so no global setup.
 */
const webComponentTests = 'src/web/**/*.test.tsx';

const projects: any[] = [
  {
    test: {
      name: 'web',
      include: [webComponentTests],
      environment: 'jsdom',
      setupFiles: [watchdog, 'src/web/test/setup.ts'],
      testTimeout: 30_000,
      // beside the browser files (after them in that group's order: short files that fill the end),
      // where a core is partly idle while pages load, not in the unit/API phase, which keeps both
      // cores busy (decision 36-06)
      sequence: { groupOrder: 2 },
      isolate,
    },
  },
  {
    test: {
      name: 'pglite',
      include: unitAndApi,
      exclude: [...configDefaults.exclude, ...solo, webComponentTests, staticChecks],
      environment: 'node',
      globalSetup: ['tests/setup/global-setup.ts'],
      setupFiles: [watchdog],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      env: { TEST_DB_KIND: 'pglite' },
      isolate,
    },
  },
  {
    test: {
      name: 'pglite-solo',
      include: solo,
      environment: 'node',
      globalSetup: ['tests/setup/global-setup.ts'],
      setupFiles: [watchdog],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      env: { TEST_DB_KIND: 'pglite' },
      fileParallelism: false,
      sequence: { groupOrder: 1 },
      isolate,
    },
  },
  {
    test: {
      name: 'browser',
      include: ['tests/e2e/**/*.e2e.ts'],
      environment: 'node',
      globalSetup: ['tests/setup/global-setup.ts', 'tests/setup/build-web.ts'],
      setupFiles: [watchdog],
      testTimeout: 120_000,
      hookTimeout: 180_000,
      // expect.poll waits for the page like Playwright's own waits do (20 s in tests/helpers/browser.ts),
      // not Vitest's default 1 s: on a busy two-core CI machine a gallery's first paint took over a second
      expect: { poll: { timeout: 20_000 } },
      // two files at a time (decision 36-05): one file alone left a core idle while the page or the
      // test waited (the phase took about 760 s of CI's 1,944 s); each file has its own server,
      // database and browser. The waits are 20 s so a busy moment is not a failure; a passing step
      // takes no longer for it.
      fileParallelism: true,
      // after the unit/API files and the solo files (a project's own group, as Vitest asks when
      // projects run with different worker counts)
      sequence: { groupOrder: 2 },
      env: { TEST_DB_KIND: 'pglite' },
      isolate,
    },
  },
  {
    test: {
      name: 'static',
      include: [staticChecks],
      environment: 'node',
      testTimeout: 1_200_000,
      // after the browser files: by then the checks started beside the run have had the idle cores
      sequence: { groupOrder: 3 },
      isolate,
    },
  },
];

/**
 * Files that run first in their group, longest first (decision 36-06): a long file started last
 * ends alone while the other worker sits idle. Vitest's own order on a fresh clone (CI has no
 * results cache) is by file size, and these files are short for their run time: the accessibility
 * walk's three files, the phone overflow file and the phone walk's two files (issue 37).
 * Every other file follows, largest first, as Vitest orders them.
 */
const RUN_FIRST = [
  'tests/e2e/a11y-signed-in.e2e.ts',
  'tests/e2e/a11y-visitor.e2e.ts',
  'tests/e2e/phone-overflow.e2e.ts',
  'tests/e2e/a11y-profiles.e2e.ts',
  'tests/e2e/phone-walk-team.e2e.ts',
  'tests/e2e/phone-walk-visitor.e2e.ts',
];

/** Vitest's order (sequence group, then project), then RUN_FIRST, then larger files first; the same on every machine. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rel = (f: TestSpecification) => path.relative(f.project.config.root, f.moduleId).split(path.sep).join('/');
    const rank = (f: TestSpecification) => {
      const i = RUN_FIRST.indexOf(rel(f));
      return i < 0 ? RUN_FIRST.length : i;
    };
    const sizes = new Map(files.map((f) => [f.moduleId, fs.existsSync(f.moduleId) ? fs.statSync(f.moduleId).size : 0]));
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        rank(a) - rank(b) ||
        sizes.get(b.moduleId)! - sizes.get(a.moduleId)! ||
        (rel(a) < rel(b) ? -1 : rel(a) > rel(b) ? 1 : 0),
    );
  }
}

/**
 * Test files that never open a database (no test app, database, server process or database-kind
 * switch in them): the postgres project would run them a second time for nothing (pure parsers,
 * renderers, the sandbox pool, lint and type checks). Found by reading the files, so a file that
 * starts using a database joins the postgres project by itself.
 */
const DB_MARKERS = /createTestApp|openDatabase|createTestDatabase|startServerProcess|startStormServer|TEST_DB_KIND|inPostgresProject|helpers\/test-db|helpers\/server-process|helpers\/test-app/;
function filesWithoutDatabase(): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name.endsWith('.test.ts') && !DB_MARKERS.test(fs.readFileSync(p, 'utf8'))) out.push(p.split(path.sep).join('/'));
    }
  };
  for (const dir of ['src/server', 'tests']) visit(dir);
  return out;
}

if (process.env.TEST_DATABASE_URL) {
  projects.push({
    test: {
      name: 'postgres',
      // API and database tests; pure unit tests need not run twice
      include: process.env.TEST_POSTGRES_WITH_UNIT === '1' ? unitAndApi : ['src/server/**/*.test.ts', 'tests/**/*.test.ts'],
      // the type checker, the linter and every file that opens no database run once (pglite project)
      // and the solo files, whose bars are about the server's CPU and time, not the database: on the
      // embedded database they run alone; here they would share the cores with other files
      // npm test runs this project on its own Node.js line (scripts/test.mjs, decision 38-03) with the
      // unit files that use no database too (TEST_POSTGRES_WITH_UNIT=1); beside the pglite project
      // they would only run twice
      exclude: [...configDefaults.exclude, ...(process.env.TEST_POSTGRES_WITH_UNIT === '1' ? [webComponentTests, staticChecks] : filesWithoutDatabase()), ...solo],
      environment: 'node',
      globalSetup: ['tests/setup/global-setup.ts'],
      setupFiles: [watchdog],
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
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
  },
});
