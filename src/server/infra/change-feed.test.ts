import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { openDatabase, type Database } from '#server/db/client';
import { createChangeFeed, type ChangeFeed } from './change-feed';
import { createScratchDatabase, pgAnswers, type ScratchDatabase } from '#tests/helpers/pg';
import { waitFor } from '#tests/helpers/smtp-server';

const quiet = () => {};
const log = { warn: quiet, error: quiet, info: quiet, debug: quiet } as unknown as FastifyBaseLogger;

describe('change feed, one process (PGlite)', () => {
  it("calls this process's subscribers at once, and stops after unsubscribe", async () => {
    const database = await openDatabase({ memory: true });
    const feed = await createChangeFeed(database, log);
    const seen: Array<string | null> = [];
    const off = feed.subscribe('mc_public_profile', (k) => seen.push(k));
    feed.publish('mc_public_profile', 'a');
    expect(seen).toEqual(['a']);
    off();
    feed.publish('mc_public_profile', 'b');
    expect(seen).toEqual(['a']);
    await feed.close();
    await database.close();
  });
});

// runs once, in the pglite project, on a scratch database of the local PostgreSQL
const pgUp = process.env.TEST_DB_KIND !== 'postgres' && (await pgAnswers());

describe.skipIf(!pgUp)('change feed between two instances on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let dbA: Database;
  let dbB: Database;
  let a: ChangeFeed;
  let b: ChangeFeed;

  beforeAll(async () => {
    scratch = await createScratchDatabase('mcfeed');
    [dbA, dbB] = await Promise.all([openDatabase({ databaseUrl: scratch.url, poolSize: 2 }), openDatabase({ databaseUrl: scratch.url, poolSize: 2 })]);
    [a, b] = await Promise.all([createChangeFeed(dbA, log), createChangeFeed(dbB, log)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([dbA?.close(), dbB?.close()]);
    await scratch?.drop();
  });

  it('a change published on one instance reaches the other', async () => {
    const onA: Array<string | null> = [];
    const onB: Array<string | null> = [];
    a.subscribe('mc_public_profile', (k) => onA.push(k));
    b.subscribe('mc_public_profile', (k) => onB.push(k));
    a.publish('mc_public_profile', 'profile-1');
    // synchronously on the publishing instance
    expect(onA[0]).toBe('profile-1');
    await waitFor(() => onB.includes('profile-1'), 'the other instance hears it', 5_000);
  });

  it('after its connection is cut, an instance says "anything may have changed" and hears changes again', async () => {
    const onB: Array<string | null> = [];
    b.subscribe('mc_public_profile', (k) => onB.push(k));
    // the database ends B's listening session (as a restart or a network cut would)
    await scratch.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid()`);
    await waitFor(() => onB.includes(null), 'B resynchronises after reconnecting', 10_000);
    a.publish('mc_public_profile', 'profile-2');
    await waitFor(() => onB.includes('profile-2'), 'B hears changes again', 5_000);
  });
});
