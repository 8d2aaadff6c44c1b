/**
 * npm run backup -- FILE [--url http://127.0.0.1:PORT]
 *
 * One consistent archive of the embedded installation in DATA_DIR (database, objects, secrets;
 * server/ops/backup/archive.ts). While a server runs on the directory it makes the archive (the
 * database lives in its process) and this command saves it; otherwise this command opens the
 * directory itself, holding its lock so no server starts meanwhile. With PostgreSQL or an
 * external object store it says what to use instead and does nothing.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '../server/config.ts';
import { connectDatabase, embeddedPglite } from '../server/db/connect.ts';
import { DataDirLockedError, lockDataDir } from '../server/data-dir-lock.ts';
import { writeBackupFile } from '../server/ops/backup/archive.ts';
import { backupToken } from '../server/ops/backup/backup-token.ts';
import { BACKUP_MESSAGES, objectsElsewhere } from '../server/routes/ops/backup.ts';

const args = process.argv.slice(2);
const urlFlag = args.indexOf('--url');
const url = urlFlag >= 0 ? args[urlFlag + 1] : undefined;
const file = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--url');
if (!file) {
  console.error('Usage: npm run backup -- FILE [--url http://127.0.0.1:PORT]   (DATA_DIR as for npm start)');
  process.exit(2);
}
const target = resolve(file);
if (existsSync(target)) {
  console.error(`${target} exists: choose a new file name (a backup never overwrites one).`);
  process.exit(2);
}

const config = loadConfig();
if (config.databaseUrl) {
  console.error(BACKUP_MESSAGES.external);
  process.exit(2);
}
// The embedded database with an external object store: the database and secrets are archived, the objects are the bucket's.
const elsewhere = objectsElsewhere(config.storage);

// Written beside the target and renamed when complete: a file with the backup's name is a whole backup.
const partial = `${target}.partial-${process.pid}`;
try {
  let lock;
  try {
    lock = lockDataDir(config.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
  }
  if (lock) {
    const db = await connectDatabase({ databaseUrl: null, dataDir: config.dataDir });
    try {
      const manifest = await writeBackupFile({ pglite: embeddedPglite(db)!, dataDir: config.dataDir, objectsElsewhere: elsewhere }, partial);
      console.log(`Backed up ${config.dataDir} (no server was running): the database and ${manifest.objects.length} files of the object store.`);
    } finally {
      await db.destroy();
      lock.release();
    }
  } else {
    const base = url ?? `http://127.0.0.1:${config.port}`;
    const response = await fetch(`${base}/api/v1/ops/backup`, { headers: { authorization: `Bearer ${backupToken(config.jwtSecret)}` } });
    if (!response.ok || !response.body) {
      throw new Error(response.status === 404 ? `The server on ${config.dataDir} did not answer at ${base} (another port? pass --url).` : `The server refused the backup (${response.status}): ${await response.text()}`);
    }
    await pipeline(Readable.fromWeb(response.body), createWriteStream(partial, { mode: 0o600 }));
    console.log(`Backed up ${config.dataDir} through the running server at ${base}.`);
  }
  await rename(partial, target);
  console.log(`Archive: ${target} (it holds the installation's secrets: keep it as safe as the data directory).`);
  if (elsewhere) console.log(BACKUP_MESSAGES.objectsElsewhere(elsewhere));
  // Ends explicitly, as move-data does: PGlite closed after reopening an existing directory can
  // keep the event loop alive (seen by hand: the archive written, the command never returned,
  // which would hang a nightly cron job).
  process.exit(0);
} catch (error) {
  await rm(partial, { force: true });
  console.error((error as Error).message);
  process.exit(1);
}
