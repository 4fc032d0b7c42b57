import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '#server/db/client';

/**
 * "Something changed" signals between the instances of the app, so in-process caches (the public
 * profile behind every card) drop an entry the moment any instance edits it.
 *
 * Subscribers of this process are called at once, synchronously. On PostgreSQL the signal also goes
 * to every other instance through `pg_notify` on the same channel, received on one dedicated
 * `LISTEN` connection per instance. When that connection drops (the database restarts, the network
 * breaks), signals may have been missed: on reconnecting, subscribers get `null` ("anything may
 * have changed") and clear what they hold. Caches keep their own short lifetime as the last bound.
 * On PGlite there is one process, so the local call is all there is.
 */
export interface ChangeFeed {
  /** tells every instance that `key` on `channel` changed (this one synchronously) */
  publish(channel: ChangeChannel, key: string): void;
  /** `fn(key)` for each change; `fn(null)` when changes may have been missed */
  subscribe(channel: ChangeChannel, fn: (key: string | null) => void): () => void;
  close(): Promise<void>;
}

/** Channels are PostgreSQL identifiers: listed here so nobody invents one at a call site. */
export type ChangeChannel = 'mc_public_profile' | 'mc_team_brand';
const CHANNELS: readonly ChangeChannel[] = ['mc_public_profile', 'mc_team_brand'];

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;

export async function createChangeFeed(database: Database, log: FastifyBaseLogger): Promise<ChangeFeed> {
  const subscribers = new Map<ChangeChannel, Set<(key: string | null) => void>>();
  const dispatch = (channel: ChangeChannel, key: string | null) => {
    for (const fn of subscribers.get(channel) ?? []) {
      try {
        fn(key);
      } catch (err) {
        log.error({ err, channel }, 'change feed subscriber failed');
      }
    }
  };
  const local: ChangeFeed = {
    publish: (channel, key) => dispatch(channel, key),
    subscribe(channel, fn) {
      let set = subscribers.get(channel);
      if (!set) subscribers.set(channel, (set = new Set()));
      set.add(fn);
      return () => set.delete(fn);
    },
    async close() {},
  };
  if (database.kind !== 'postgres') return local;

  const { default: pg } = await import('pg');
  const pool = database.raw as import('pg').Pool;
  let closed = false;
  let client: import('pg').Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let delay = RECONNECT_MIN_MS;
  let connectedOnce = false;

  const scheduleReconnect = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };

  async function connect(): Promise<void> {
    // its own connection, without the pool's query timeouts: it waits for notifications indefinitely
    const c = new pg.Client({ ...pool.options, query_timeout: undefined, statement_timeout: undefined });
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (client === c) client = null;
      void c.end().catch(() => {});
      scheduleReconnect();
    };
    c.on('error', drop);
    c.on('end', drop);
    c.on('notification', (msg) => {
      const channel = CHANNELS.find((ch) => ch === msg.channel);
      if (channel && msg.payload) dispatch(channel, msg.payload);
    });
    try {
      await c.connect();
      for (const channel of CHANNELS) await c.query(`LISTEN ${channel}`);
    } catch (err) {
      if (!dropped) log.warn({ err: (err as Error).message }, 'change feed: cannot listen, retrying');
      drop();
      return;
    }
    if (closed) {
      void c.end().catch(() => {});
      return;
    }
    client = c;
    delay = RECONNECT_MIN_MS;
    // whatever was published while nobody listened is unknown: everyone starts afresh
    if (connectedOnce) for (const channel of CHANNELS) dispatch(channel, null);
    connectedOnce = true;
  }

  await connect();

  return {
    publish(channel, key) {
      dispatch(channel, key);
      // the other instances; this one also hears it back, which is harmless
      pool.query('select pg_notify($1, $2)', [channel, key]).catch((err: Error) => {
        log.warn({ err: err.message, channel }, 'change feed: could not notify the other instances');
      });
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}
