// Regenerates the SQL migrations from src/server/db/schema with drizzle-kit.
// Usage: npm run db:generate [-- --name=short_name]
import { spawnSync } from 'node:child_process';
const args = ['drizzle-kit', 'generate', ...process.argv.slice(2)];
const r = spawnSync('npx', args, { stdio: 'inherit' });
process.exit(r.status ?? 1);
