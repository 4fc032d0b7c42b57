import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every table has one writer (issue 34, decision 34-05; docs/architecture.md, "Who owns which
 * tables"): its owner, the feature its schema file is named after (`src/server/db/schema/<owner>.ts`;
 * `infra.ts` is server/infra's). Only the owner inserts, updates or deletes its rows; another
 * feature calls the owner's public-api (and reads only what scripts/lint/table-reads.js allows).
 * The check is static, over every server file but tests: Drizzle calls (`.insert(cards)`,
 * `.update(cards)`, `.delete(cards)`) and raw SQL (`insert into cards`, `update cards`,
 * `delete from cards`).
 */
const root = path.resolve(__dirname, '../..');
const serverDir = path.join(root, 'src/server');
const schemaDir = path.join(serverDir, 'db/schema');

/** Lower layers (below the features) own the `infra.ts` tables: files, outbox, rate limits, secrets. */
const LOWER = /^src\/server\/(infra|db|jobs|plugins|cli|http)\/|^src\/server\/[^/]+\.ts$/;

/**
 * Lower-layer writes to a feature's table: the request plumbing keeps what it checks on every
 * request current, and the operator's command line makes the first staff account.
 */
const LOWER_WRITES: Record<string, string[]> = {
  'src/server/plugins/session.ts': ['sessions'], // last seen, expired sessions dropped
  'src/server/plugins/api-tokens.ts': ['api_tokens'], // last used
  'src/server/cli/admin.ts': ['users'], // npm run admin: make or promote a staff account
};

interface Table {
  table: string;
  sql: string;
  owner: string;
}

function ownedTables(): Table[] {
  return fs
    .readdirSync(schemaDir)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .flatMap((f) => [...fs.readFileSync(path.join(schemaDir, f), 'utf8').matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map((m) => ({ table: m[1], sql: m[2], owner: f.slice(0, -3) })));
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? walk(p) : /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [p] : [];
  });
}

/** Where `text` writes `t` ("line: text"), by Drizzle or raw SQL. */
function writesOf(text: string, t: Pick<Table, 'table' | 'sql'>): string[] {
  const drizzle = new RegExp(`\\.(insert|update|delete)\\(\\s*${t.table}\\s*\\)`);
  const raw = new RegExp(`\\b(insert\\s+into|update|delete\\s+from)\\s+"?${t.sql}"?\\b`, 'i');
  return text
    .split('\n')
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => drizzle.test(line) || raw.test(line))
    .map(({ line, i }) => `${i + 1}: ${line.trim()}`);
}

/** Whether the server file `rel` may write `t`. */
function mayWrite(rel: string, t: Table): boolean {
  if (t.owner === 'infra') return LOWER.test(rel);
  if (rel.startsWith(`src/server/features/${t.owner}/`)) return true;
  return (LOWER_WRITES[rel] ?? []).includes(t.sql);
}

/** Every write outside its owner, as "file:line: text (why)". */
function strayWrites(files: Array<{ rel: string; text: string }>, tables: Table[]): string[] {
  const found: string[] = [];
  for (const { rel, text } of files)
    for (const t of tables) {
      if (mayWrite(rel, t)) continue;
      const owner = t.owner === 'infra' ? 'server/infra' : `features/${t.owner}`;
      for (const w of writesOf(text, t)) found.push(`${rel}:${w} (${t.sql} belongs to ${owner}: call its ${t.owner === 'infra' ? 'functions' : 'public-api'})`);
    }
  return found;
}

describe('every table has one writer', () => {
  const tables = ownedTables();

  it('the check sees Drizzle and raw SQL writes', () => {
    const cards = { table: 'cards', sql: 'cards' };
    expect(writesOf('await tx.update(cards).set({ status })', cards)).toHaveLength(1);
    expect(writesOf('await tx.insert( cards ).values(v)', cards)).toHaveLength(1);
    expect(writesOf('await db.execute(sql`delete from cards where id = ${id}`)', cards)).toHaveLength(1);
    expect(writesOf('await db.execute(sql`UPDATE cards SET status = 1`)', cards)).toHaveLength(1);
    expect(writesOf('await db.select().from(cards)', cards)).toEqual([]);
    expect(writesOf('// the cards wait for review; update the cardsCount', cards)).toEqual([]);
  });

  it('every table has an owner named after a feature (or infra), and the owners are the schema files', () => {
    const features = new Set(fs.readdirSync(path.join(serverDir, 'features')));
    expect(tables.length).toBeGreaterThan(35);
    for (const t of tables) expect(t.owner === 'infra' || features.has(t.owner), `db/schema/${t.owner}.ts (${t.sql}) is named after no feature`).toBe(true);
    const byOwner = (sql: string) => tables.find((t) => t.sql === sql)?.owner;
    expect([byOwner('cards'), byOwner('design_events'), byOwner('profiles'), byOwner('users'), byOwner('orders'), byOwner('files')]).toEqual(['designs', 'designs', 'profile', 'auth', 'orders', 'infra']);
  });

  it('the check bites: a feature writing another feature\'s table, or a feature writing an infra table', () => {
    const found = strayWrites(
      [
        { rel: 'src/server/features/admin/x.ts', text: 'await tx.update(orders).set({ status })' },
        { rel: 'src/server/features/team/x.ts', text: 'await ctx.db.update(profiles).set({ templateId })' },
        { rel: 'src/server/features/uploads/x.ts', text: 'await ctx.db.insert(files).values(row)' },
        { rel: 'src/server/features/orders/x.ts', text: 'await tx.update(orders).set({ status })' },
        { rel: 'src/server/infra/x.ts', text: 'await db.insert(files).values(row)' },
      ],
      tables,
    );
    expect(found.map((f) => f.split(':')[0])).toEqual(['src/server/features/admin/x.ts', 'src/server/features/team/x.ts', 'src/server/features/uploads/x.ts']);
  });

  it('the tree writes every table only from its owner', () => {
    const files = walk(serverDir).map((file) => ({ rel: path.relative(root, file).split(path.sep).join('/'), text: fs.readFileSync(file, 'utf8') }));
    expect(strayWrites(files, tables)).toEqual([]);
  });
});
