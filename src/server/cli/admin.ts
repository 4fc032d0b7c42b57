// npm run admin -- <email>: gives an existing account the admin role.
import { sql } from 'drizzle-orm';
import { loadConfig } from '#server/env';
import { openDatabase } from '#server/db/client';
import { runMigrations } from '#server/db/migrate';
import { users } from '#server/db/schema/index';

async function main() {
  const email = process.argv[2]?.trim();
  if (!email) {
    console.error('Usage: npm run admin -- <email>');
    process.exit(2);
  }
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 1, queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS });
  try {
    await runMigrations(database);
    const rows = await database.db
      .update(users)
      .set({ role: 'admin', updatedAt: new Date() })
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
      .returning({ id: users.id, email: users.email });
    if (!rows.length) {
      console.error(`No account with the e-mail ${email}. Sign up first, then run this again (or list it in ADMIN_EMAILS).`);
      process.exitCode = 1;
    } else {
      console.log(`${rows[0].email} is now an admin.`);
    }
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
