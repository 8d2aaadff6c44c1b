/**
 * npm run move-data -- --to-database postgres://… [--to-s3-endpoint URL --to-s3-bucket NAME [--to-s3-region R]]
 *
 * Moves an embedded installation (DATA_DIR) to PostgreSQL and, when named, another S3 bucket
 * (credentials: MOVE_S3_ACCESS_KEY_ID / MOVE_S3_SECRET_ACCESS_KEY, or the AWS default chain).
 * Server code: server/ops/move-data/. Exit code 0 only when every row and object matched.
 */
import { loadConfig } from '../server/config.ts';
import { DataDirLockedError } from '../server/data-dir-lock.ts';
import { MoveRefusedError, moveData } from '../server/ops/move-data/move.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const toDatabase = flag('--to-database');
const s3Endpoint = flag('--to-s3-endpoint');
const s3Bucket = flag('--to-s3-bucket');
if (!toDatabase || !/^postgres(ql)?:\/\//.test(toDatabase) || Boolean(s3Endpoint) !== Boolean(s3Bucket)) {
  console.error('Usage: npm run move-data -- --to-database postgres://user:password@host/db [--to-s3-endpoint https://… --to-s3-bucket NAME [--to-s3-region us-east-1]]');
  process.exit(2);
}

const tty = process.stderr.isTTY;
let lastLine = 0;
const progress = (line: string) => {
  if (tty) process.stderr.write(`\r${line.slice(0, (process.stderr.columns ?? 100) - 1).padEnd(Math.min(lastLine, 200))}`);
  else if (Date.now() - lastLine > 1000) {
    // Plain lines at most once a second when nobody watches a terminal (a log, CI).
    process.stderr.write(`${line}\n`);
    lastLine = Date.now();
  }
  if (tty) lastLine = line.length;
};

try {
  const config = loadConfig();
  const report = await moveData({
    config,
    toDatabase,
    toS3: s3Endpoint && s3Bucket
      ? { endpoint: s3Endpoint, bucket: s3Bucket, region: flag('--to-s3-region') ?? 'us-east-1', forcePathStyle: true, ...(process.env.MOVE_S3_ACCESS_KEY_ID && { accessKeyId: process.env.MOVE_S3_ACCESS_KEY_ID, secretAccessKey: process.env.MOVE_S3_SECRET_ACCESS_KEY ?? '' }) }
      : null,
    progress,
  });
  if (tty) process.stderr.write('\n');
  console.log('table                          source    target');
  for (const t of report.tables) console.log(`${t.name.padEnd(28)} ${String(t.source).padStart(8)}  ${String(t.target).padStart(8)}${t.source === t.target ? '' : '   MISMATCH'}`);
  if (report.objects) {
    console.log(`objects: ${report.objects.count} (${(report.objects.bytes / 1048576).toFixed(1)} MiB; ${report.objects.skipped} already there), each checked by SHA-256`);
    for (const key of report.objects.mismatches) console.log(`  MISMATCH ${key}`);
  } else console.log(`objects: not moved; they stay in ${config.dataDir}/s3, served by a server started with this DATA_DIR (without S3_ENDPOINT).`);
  if (!report.ok) {
    console.error('The move did not verify: see the mismatches above. Run it again to finish it.');
    process.exit(1);
  }
  console.log(`Moved. Start the server with DATABASE_URL=<the target>${report.objects ? ' S3_ENDPOINT=… S3_BUCKET=…' : ''}; this data directory now refuses to start on its embedded copy (${config.dataDir}/MOVED.json, --force to override).`);
} catch (error) {
  console.error(error instanceof MoveRefusedError || error instanceof DataDirLockedError ? error.message : error);
  process.exit(error instanceof MoveRefusedError || error instanceof DataDirLockedError ? 2 : 1);
}
