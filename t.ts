import { openDatabase } from '#server/db/client';
import { runMigrations } from '#server/db/migrate';
const t0 = Date.now();
const d = await openDatabase({ memory: true });
console.log('open', Date.now() - t0);
await runMigrations(d);
console.log('migrated', Date.now() - t0);
const dump = await (d.raw as any).dumpDataDir('gzip');
console.log('dump', Date.now() - t0, dump.size);
const t1 = Date.now();
const d2 = await openDatabase({ memory: true, loadDataDir: dump });
const r = await d2.db.execute('select count(*) from users' as any).catch(e=>e.message);
console.log('load', Date.now() - t1, JSON.stringify(r).slice(0,100));
if (process.env.PG) { const p = await openDatabase({ databaseUrl: process.env.PG }); await runMigrations(p); console.log('pg ok'); await p.close(); }
