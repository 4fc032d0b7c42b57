import { loadConfig } from './env';
import { openDatabase } from '#server/db/client';
import { runMigrations } from '#server/db/migrate';
import { runSeeds } from '#server/seeds';
import { closeWorkerPool, workerPool } from '#server/infra/worker-pool';
import { closeProcessPool, configureProcessPool, processPool, sandboxOptionsFrom } from '#server/infra/process-pool';
import { buildApp } from './app';
import { warmTemplateThumbnails } from '#server/features/templates/public-api';
import { lockDataDir } from '#server/db/data-dir-lock';
import { startShutdownWatchdog } from '#server/infra/shutdown-watchdog';

async function main() {
  const started = Date.now();
  const config = loadConfig();
  // the embedded database belongs to one process: a second server, or a move or restore, is refused (decision 38-02)
  if (!config.DATABASE_URL) lockDataDir(config.dataDir);
  // the sandbox's warm process loads (sharp and resvg) while the database
  // opens and migrates, so the first upload after start-up does not wait for it (decision 32-02)
  configureProcessPool(sandboxOptionsFrom(config));
  processPool().warmUp();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: config.DATABASE_POOL_SIZE, queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS, ownThread: config.PGLITE_THREAD });
  await runMigrations(database);
  const app = await buildApp({ config, database, dev: config.NODE_ENV === 'development' });
  await runSeeds(app.ctx);
  await app.listen({ port: config.PORT, host: config.HOST });
  // the warm worker threads (render and visitor lanes) start now, not with the first thumbnail
  workerPool();
  // the templates' thumbnails are drawn now, one at a time, not by a cold templates page all at once
  void warmTemplateThumbnails(app.ctx).catch(() => {});
  app.log.info({ ms: Date.now() - started, database: database.kind }, `ready on ${app.ctx.publicUrl()}`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // the backstop of the 10 s promise runs on a thread of its own: a main thread slowed by a busy
    // machine or held by synchronous work cannot delay it (measured: 12.9 s at load 20 with the
    // timer below alone)
    startShutdownWatchdog(9_300);
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // sandbox processes are SIGKILLed now, whatever they are doing (a burning render does not
    // listen); their requests answer 503 (decision 32-02)
    closeProcessPool();
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 8.5 s; exiting');
      // process.exit waits for worker threads, and a thread inside a native render cannot be
      // interrupted: a kill is the only exit that keeps the 10 s promise (decision 18-01)
      process.kill(process.pid, 'SIGKILL');
    }, 8_500);
    force.unref();
    try {
      // new requests get 503 at once while in-flight ones finish; renders in progress are abandoned
      // at the same time (their requests answer 503), so in-flight requests finish quickly;
      // acknowledged work is in the database already
      const appClosed = app.close();
      // piscina's destroy is not awaited past a second: a thread inside a native call never ends
      await closeWorkerPool(1000);
      // in-flight requests got their answers when the pools closed; one that still waits on
      // something else does not hold the exit past 6 s
      await Promise.race([appClosed, new Promise((r) => setTimeout(r, 6000).unref())]);
      await database.close();
      exitSoon(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      exitSoon(1);
    }
  };
  // process.exit joins the worker threads; one still inside a native render (ended by the pool,
  // but native code runs to its end) would hold the exit: after a second, kill instead
  const exitSoon = (code: number) => {
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), 1000).unref();
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
