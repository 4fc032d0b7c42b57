import fs from 'node:fs';
import { openDatabase } from '#server/db/client';
import { runMigrations } from '#server/db/migrate';
import { ensureServerBuilt, prepareDataDir } from '#tests/helpers/server-process';
import { seedStormAccounts, signIn, startStormServer, warmUp, type Cookies, type StormServer } from '#tests/helpers/hostile-storm';

export interface HostileFixture {
  server: StormServer;
  cookies: Cookies;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The built server in its own process on a migrated embedded database, with a user and an admin
 * signed in (tests of issue 32). HOSTILE_SERVER_JS runs another build instead (the old code).
 */
export async function startHostileFixture(env: Record<string, string> = {}): Promise<HostileFixture> {
  if (!process.env.HOSTILE_SERVER_JS) await ensureServerBuilt();
  const dataDir = await prepareDataDir();
  const database = await openDatabase({ dataDir });
  await runMigrations(database); // a no-op on the migrated template
  const accounts = await seedStormAccounts(database);
  await database.close();
  const server = await startStormServer({ DATA_DIR: dataDir, RATE_LIMITS: 'off', ...env });
  try {
    const cookies = { user: await signIn(server.base, accounts.user), admin: await signIn(server.base, accounts.admin) };
    // a server that has been up a while: the first SVG task and the first QR PNG start their workers
    await warmUp(server.base, cookies);
    return {
      server,
      cookies,
      dataDir,
      async close() {
        await server.stop('SIGKILL');
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await server.stop('SIGKILL');
    throw e;
  }
}
