// npm run move -- --to-database postgres://... [--to-bucket] [--force]
// Copies the embedded database and the files in DATA_DIR to PostgreSQL (and the S3 bucket named by
// the S3_* settings), then compares row counts and file checksums. Decision 38-02.
import { loadConfig } from '#server/env';
import { formatMoveReport, MoveRefused, runMove } from '#server/features/backups/move';

const USAGE = `Usage: npm run move -- --to-database postgres://user:pass@host:5432/db [--to-bucket] [--force]

  --to-database URL  the PostgreSQL database to fill (created empty beforehand; migrated by this command)
  --to-bucket        also copy DATA_DIR/files to the bucket of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID,
                     S3_SECRET_ACCESS_KEY, S3_REGION (from the environment)
  --force            fill a target database that already holds data: its tables are emptied first
  --data-dir DIR     the data dir to read (default: DATA_DIR)

The server must be stopped. Run it again after an interruption: it finishes the job.`;

function parseArgs(argv: string[]) {
  const out: { database?: string; bucket: boolean; force: boolean; dataDir?: string; help: boolean } = { bucket: false, force: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (name === '--to-database') out.database = value();
    else if (name === '--to-bucket') out.bucket = true;
    else if (name === '--force') out.force = true;
    else if (name === '--data-dir') out.dataDir = value();
    else if (name === '--help' || name === '-h') out.help = true;
    else throw new MoveRefused(`Unknown option ${argv[i]}\n\n${USAGE}`);
  }
  return out;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return;
  }
  if (!args.database || !/^postgres(ql)?:\/\//.test(args.database)) throw new MoveRefused(`--to-database needs a postgres:// URL.\n\n${USAGE}`);
  const config = loadConfig(process.env, args.dataDir ? { DATA_DIR: args.dataDir } : {});
  let bucket;
  if (args.bucket) {
    if (!config.S3_ENDPOINT || !config.S3_BUCKET) throw new MoveRefused('--to-bucket needs S3_ENDPOINT and S3_BUCKET (and the keys) in the environment.');
    bucket = { endpoint: config.S3_ENDPOINT, bucket: config.S3_BUCKET, region: config.S3_REGION, accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY };
  }
  const report = await runMove({ dataDir: config.dataDir, databaseUrl: args.database, bucket, force: args.force });
  console.log(formatMoveReport(report));
  process.exitCode = report.ok ? 0 : 1;
}

main().catch((err) => {
  if (err instanceof MoveRefused) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
