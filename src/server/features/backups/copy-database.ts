/**
 * Copies every table of the embedded database (PGlite) into a PostgreSQL database whose schema the
 * project's migrations made, with the sequences, and compares the row counts (decision 38-02).
 *
 * Rows travel as JSON (`row_to_json` on the source, `json_populate_recordset` on the target), a
 * batch per statement: every column type round-trips through its own text form, nothing is
 * converted by this code. Each table is copied in one target transaction and recorded in a state
 * table (`mc_move_state`) in the same transaction, so an interrupted move leaves whole tables
 * behind: run again, it skips the recorded ones and copies the rest. The state table is dropped
 * once every count matched.
 */

/** What both a PGlite instance and a node-postgres client offer. */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

export interface TableReport {
  table: string;
  source: number;
  target: number;
  /** copied now; false when an earlier run had copied it */
  copied: boolean;
}

export interface CopyProgress {
  (event: { table: string; done: number; total: number; tableIndex: number; tables: number }): void;
}

export const STATE_TABLE = 'mc_move_state';
const BATCH_ROWS = 5000;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The user tables of schema public (the migrations' own bookkeeping lives in schema drizzle). */
export async function listTables(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> $1 order by c.relname`,
    [STATE_TABLE],
  );
  return rows.map((r) => r.name);
}

/** Tables ordered so that every table comes after the tables it references (foreign keys). */
export async function tablesInDependencyOrder(db: Queryable, tables: string[]): Promise<string[]> {
  const { rows } = await db.query<{ child: string; parent: string }>(
    `select cl.relname as child, pl.relname as parent from pg_constraint k
       join pg_class cl on cl.oid = k.conrelid join pg_class pl on pl.oid = k.confrelid
       join pg_namespace n on n.oid = cl.relnamespace
      where k.contype = 'f' and n.nspname = 'public'`,
  );
  const deps = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const r of rows) if (r.child !== r.parent && deps.has(r.child) && deps.has(r.parent)) deps.get(r.child)!.add(r.parent);
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (seen.has(t) || path.has(t)) return;
    path.add(t);
    for (const p of deps.get(t) ?? []) visit(p, path);
    path.delete(t);
    seen.add(t);
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

async function countRows(db: Queryable, table: string): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>(`select count(*)::text as n from ${ident(table)}`);
  return Number(rows[0].n);
}

async function writableColumns(db: Queryable, table: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select a.attname as name from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relname = $1 and a.attnum > 0 and not a.attisdropped and a.attgenerated = '' order by a.attnum`,
    [table],
  );
  return rows.map((r) => r.name);
}

async function orderKey(db: Queryable, table: string): Promise<string> {
  const { rows } = await db.query<{ name: string }>(
    `select a.attname as name from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
      where n.nspname = 'public' and c.relname = $1 and i.indisprimary order by array_position(i.indkey::int[], a.attnum::int)`,
    [table],
  );
  return rows.length ? rows.map((r) => ident(r.name)).join(', ') : 'ctid';
}

/** Does the target hold rows in any table (the state table of an unfinished move aside)? */
export async function targetHasData(target: Queryable): Promise<string[]> {
  const full: string[] = [];
  for (const t of await listTables(target)) if ((await countRows(target, t)) > 0) full.push(t);
  return full;
}

export async function stateTableExists(target: Queryable): Promise<boolean> {
  const { rows } = await target.query<{ n: string }>(`select to_regclass($1)::text as n`, [`public.${STATE_TABLE}`]);
  return rows[0].n !== null;
}

/**
 * Copies every table and sequence from `source` to `target`. The target has the same schema
 * (migrated). With `fresh`, every target table is emptied first (a forced move onto old data).
 */
export async function copyDatabase(
  source: Queryable,
  target: Queryable,
  opts: { fresh?: boolean; onProgress?: CopyProgress; batchRows?: number } = {},
): Promise<{ tables: TableReport[]; sequences: number; mismatches: string[] }> {
  const batchRows = opts.batchRows ?? BATCH_ROWS;
  const sourceTables = await listTables(source);
  const targetTables = new Set(await listTables(target));
  const missing = sourceTables.filter((t) => !targetTables.has(t));
  if (missing.length) throw new Error(`The target database has no table ${missing.join(', ')}: is it migrated to this version?`);
  const ordered = await tablesInDependencyOrder(source, sourceTables);

  await target.query(`create table if not exists ${STATE_TABLE} (table_name text primary key, row_count bigint not null, copied_at timestamptz not null default now())`);
  if (opts.fresh) {
    await target.query(`truncate ${ordered.map(ident).join(', ')} restart identity cascade`);
    await target.query(`delete from ${STATE_TABLE}`);
  }
  const done = new Map((await target.query<{ table_name: string; row_count: string }>(`select table_name, row_count::text from ${STATE_TABLE}`)).rows.map((r) => [r.table_name, Number(r.row_count)]));

  // the rows are written in foreign-key order, so constraints hold as they go; where the role may,
  // triggers are left out too (session_replication_role: superusers and owners with the right only)
  const replica = await target.query(`set session_replication_role = replica`).then(
    () => true,
    () => false,
  );

  await source.query(`set timezone = 'UTC'`);
  await target.query(`set timezone = 'UTC'`);
  const reports: TableReport[] = [];
  for (const [i, table] of ordered.entries()) {
    const total = await countRows(source, table);
    if (done.has(table)) {
      reports.push({ table, source: total, target: await countRows(target, table), copied: false });
      opts.onProgress?.({ table, done: total, total, tableIndex: i, tables: ordered.length });
      continue;
    }
    const columns = await writableColumns(source, table);
    const cols = columns.map(ident).join(', ');
    const key = await orderKey(source, table);
    const insert = `insert into ${ident(table)} (${cols}) overriding system value select ${cols} from json_populate_recordset(null::${ident(table)}, $1::json)`;
    await target.query('begin');
    try {
      // rows a failed earlier attempt of this table left (none: its transaction rolled back), or
      // rows someone wrote meanwhile: the table is copied whole
      if ((await countRows(target, table)) > 0) await target.query(`delete from ${ident(table)}`);
      await source.query('begin isolation level repeatable read');
      try {
        await source.query(`declare mc_move_rows no scroll cursor for select row_to_json(t)::text as j from ${ident(table)} t order by ${key}`);
        let copied = 0;
        let pending: Promise<unknown> | null = null;
        opts.onProgress?.({ table, done: 0, total, tableIndex: i, tables: ordered.length });
        for (;;) {
          const { rows } = await source.query<{ j: string }>(`fetch ${batchRows} from mc_move_rows`);
          if (pending) await pending;
          if (!rows.length) break;
          const json = `[${rows.map((r) => r.j).join(',')}]`;
          copied += rows.length;
          const n = copied;
          // the target writes this batch while the source reads the next one
          pending = target.query(insert, [json]).then(() => opts.onProgress?.({ table, done: n, total, tableIndex: i, tables: ordered.length }));
        }
        await source.query('close mc_move_rows');
      } finally {
        await source.query('commit');
      }
      await target.query(`insert into ${STATE_TABLE} (table_name, row_count) values ($1, $2) on conflict (table_name) do update set row_count = excluded.row_count`, [table, total]);
      await target.query('commit');
    } catch (e) {
      await target.query('rollback').catch(() => undefined);
      throw e;
    }
    reports.push({ table, source: total, target: await countRows(target, table), copied: true });
  }
  if (replica) await target.query(`set session_replication_role = origin`);

  const sequences = await copySequences(source, target);
  const mismatches = reports.filter((r) => r.source !== r.target).map((r) => `${r.table}: ${r.source} rows in the embedded database, ${r.target} in PostgreSQL`);
  return { tables: reports, sequences, mismatches };
}

/** Sets every sequence of schema public on the target to the source's position. */
async function copySequences(source: Queryable, target: Queryable): Promise<number> {
  const { rows } = await source.query<{ name: string; last: string | null }>(
    `select sequencename as name, last_value::text as last from pg_sequences where schemaname = 'public'`,
  );
  for (const s of rows) {
    if (s.last === null) await target.query(`select setval($1, 1, false)`, [`public.${ident(s.name)}`]);
    else await target.query(`select setval($1, $2::bigint, true)`, [`public.${ident(s.name)}`, s.last]);
  }
  return rows.length;
}

/** Drops the state table once the move is complete and checked. */
export async function finishMove(target: Queryable): Promise<void> {
  await target.query(`drop table if exists ${STATE_TABLE}`);
}
