/**
 * npm run restore -- FILE [--data-dir DIR]
 * npm run restore -- --before-upgrade [--data-dir DIR]
 *
 * Restores a backup made by `npm run backup` into an empty data directory (DATA_DIR, or
 * --data-dir): the database, every object checked against the archive's checksums, the secrets.
 * Exit code 0 only when everything matches.
 * With --before-upgrade: puts back the embedded database as it was before the last upgrade
 * migrated it (the snapshot the server took then; scripts/restore-before-upgrade.ts).
 */
import { resolve } from 'node:path';
import { RestoreRefusedError, restoreBackup } from '../server/ops/backup/restore.ts';

const args = process.argv.slice(2);
const dirFlag = args.indexOf('--data-dir');
const dataDir = resolve(dirFlag >= 0 ? args[dirFlag + 1]! : (process.env.DATA_DIR ?? './data'));
if (args.includes('--before-upgrade')) {
  const { restoreBeforeUpgrade } = await import('./restore-before-upgrade.ts');
  process.exit(await restoreBeforeUpgrade(dataDir));
}
const file = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--data-dir');
if (!file) {
  console.error('Usage: npm run restore -- FILE [--data-dir DIR]\n       npm run restore -- --before-upgrade [--data-dir DIR]');
  process.exit(2);
}

try {
  const report = await restoreBackup(resolve(file), dataDir);
  const rows = Object.entries(report.tables);
  console.log(`Restored into ${dataDir}:`);
  for (const [table, count] of rows) console.log(`  ${table.padEnd(28)} ${count} rows`);
  // The embedded store keeps each object as two files (its bytes and its metadata): files are counted.
  if (report.objectsElsewhere)
    console.log(`  objects: not in this archive; they are in ${report.objectsElsewhere} (start with the same S3_ENDPOINT and S3_BUCKET)`);
  else
    console.log(
      `  object store: ${report.objects} files, objects' data and metadata (${(report.bytes / 1024 / 1024).toFixed(1)} MiB), each checked against its SHA-256`,
    );
  if (report.mismatches.length) {
    console.error(`${report.mismatches.length} files of the object store did not match the archive's manifest:`);
    for (const path of report.mismatches) console.error(`  ${path}`);
    process.exit(1);
  }
  console.log(`Start it with DATA_DIR=${dataDir} npm start.`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(error instanceof RestoreRefusedError ? 2 : 1);
}
