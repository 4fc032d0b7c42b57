/**
 * The messages between the event-loop thread and the thread that runs the embedded database
 * (decision 18-05). Kept apart from both sides so each can import it without the other.
 */

/** The database thread's name in /proc (15 characters at most): the worker pool leaves it at full priority. */
export const PGLITE_THREAD_NAME = 'mc-database';

export interface PgliteThreadInit {
  /** a data dir on disk; none: in memory */
  dataDir?: string;
  startParams: string[];
  /** a data dir dump (tar, maybe gzipped) to start the in-memory database from */
  loadDataDir?: ArrayBuffer;
}

export interface QueryOptionsWire {
  rowMode?: 'array' | 'object';
  /** result types passed through as the text PostgreSQL sent (drizzle's parsers: timestamps, dates, intervals) */
  textTypes?: number[];
}

export type PgliteRequest =
  | { id: number; op: 'query'; text: string; params?: unknown[]; options?: QueryOptionsWire; tx?: number }
  | { id: number; op: 'exec'; text: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'dump'; compression?: 'gzip' | 'none' }
  /** copy the data dir's files to `to` while no statement runs (online backups, decision 38-02) */
  | { id: number; op: 'copyDataDir'; to: string }
  | { id: number; op: 'close' };

/** An error crosses as plain data: its class does not survive structured cloning, its fields must. */
export interface ErrorWire {
  message: string;
  name: string;
  /** the primitive fields of a PostgreSQL error: code, constraint, detail, table, severity, ... */
  fields: Record<string, string | number | boolean>;
}

export type PgliteReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorWire };

export type PgliteReady = { ready: true } | { ready: false; error: ErrorWire };

export function errorToWire(e: unknown): ErrorWire {
  if (!(e instanceof Error)) return { message: String(e), name: 'Error', fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(e)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') fields[k] = v;
  }
  return { message: e.message, name: e.name, fields };
}

export function errorFromWire(w: ErrorWire): Error {
  const e = new Error(w.message);
  Object.assign(e, w.fields);
  e.name = w.name;
  return e;
}
