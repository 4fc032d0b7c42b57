// npm run restore -- FILE [--to-database postgres://...] [--to-bucket] [--force]
// Restores a backup (Admin > Backups, POST /api/admin/backups, BACKUP_EVERY_HOURS) into a fresh
// DATA_DIR, or into a PostgreSQL database. Decision 38-02.
import { loadConfig } from '#server/env';
import { formatMoveReport, MoveRefused, redactUrl } from '#server/features/backups/move';
import { formatRestoreReport, runRestore } from '#server/features/backups/restore';

const USAGE = `Usage: npm run restore -- FILE [--data-dir DIR] | [--to-database postgres://... [--to-bucket] [--force]]

  FILE               a backup file (backup-YYYYMMDD-HHMMSS-mmm.tar from BACKUP_DIR or the bucket's backups/)
  --data-dir DIR     the fresh data dir to restore into (default: DATA_DIR; it must hold no database)
  --to-database URL  restore into this PostgreSQL database instead (empty, or --force to empty it)
  --to-bucket        with --to-database: put the backup's files in the bucket of the S3_* settings`;

async function main() {
  const argv = process.argv.slice(2);
  let file: string | undefined;
  let database: string | undefined;
  let dataDir: string | undefined;
  let bucket = false;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (name === '--to-database') database = value();
    else if (name === '--data-dir') dataDir = value();
    else if (name === '--to-bucket') bucket = true;
    else if (name === '--force') force = true;
    else if (name === '--help' || name === '-h') return console.log(USAGE);
    else if (!name.startsWith('--') && !file) file = argv[i];
    else throw new MoveRefused(`Unknown option ${argv[i]}\n\n${USAGE}`);
  }
  if (!file) throw new MoveRefused(USAGE);
  if (database !== undefined && !/^postgres(ql)?:\/\//.test(database)) throw new MoveRefused('--to-database needs a postgres:// URL.');
  const config = loadConfig(process.env, dataDir ? { DATA_DIR: dataDir } : {});
  let s3;
  if (bucket) {
    if (!config.S3_ENDPOINT || !config.S3_BUCKET) throw new MoveRefused('--to-bucket needs S3_ENDPOINT and S3_BUCKET (and the keys) in the environment.');
    s3 = { endpoint: config.S3_ENDPOINT, bucket: config.S3_BUCKET, region: config.S3_REGION, accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY };
  }
  const report = await runRestore({ file, dataDir: config.dataDir, databaseUrl: database, bucket: s3, force });
  console.log(formatRestoreReport(report, database ? redactUrl(database) : config.dataDir));
  if (report.move) console.log(formatMoveReport(report.move));
  const ok = !report.files.missing.length && !report.files.mismatches.length && (report.move?.ok ?? true);
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  if (err instanceof MoveRefused) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
