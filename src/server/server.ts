import { loadConfig } from './env';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { runSeeds } from './db/seed';
import { buildApp } from './app';

async function main() {
  const started = Date.now();
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: config.DATABASE_POOL_SIZE, queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS });
  await runMigrations(database);
  const app = await buildApp({ config, database, dev: config.NODE_ENV === 'development' });
  await runSeeds(app.ctx);
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ ms: Date.now() - started, database: database.kind }, `ready on ${app.ctx.publicUrl()}`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close(); // new requests get 503 while in-flight ones finish
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
