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
import { dirname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '../server/config.ts';
import { connectDatabase, embeddedPglite } from '../server/db/connect.ts';
import { DataDirLockedError, lockDataDir } from '../server/data-dir-lock.ts';
import { writeBackupFile } from '../server/ops/backup/archive.ts';
import { closeEmbeddedDatabase } from '../server/ops/embedded-db.ts';
import { backupToken } from '../server/ops/backup/backup-token.ts';
import { BACKUP_MESSAGES, objectsElsewhere } from '../server/routes/ops/backup.ts';
import { DiskFullError, isDiskFull, rethrowDiskFull } from '../server/storage/disk-full.ts';

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
  let server: DataDirLockedError | null = null;
  let noRoomForLock: unknown = null;
  try {
    lock = lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) server = error;
    // No room even for the lock's file: a server running there is asked (and says so too).
    else if (isDiskFull(error)) noRoomForLock = error;
    else throw error;
  }
  if (lock) {
    const db = await connectDatabase({ databaseUrl: null, dataDir: config.dataDir });
    try {
      const manifest = await writeBackupFile({ pglite: embeddedPglite(db)!, dataDir: config.dataDir, objectsElsewhere: elsewhere }, partial, target);
      console.log(`Backed up ${config.dataDir} (no server was running): the database and ${manifest.objects.length} files of the object store.`);
    } finally {
      await closeEmbeddedDatabase(db);
      lock.release();
    }
  } else {
    const base = url ?? `http://127.0.0.1:${config.port}`;
    const response = await fetch(`${base}/api/v1/ops/backup`, { headers: { authorization: `Bearer ${backupToken(config.jwtSecret)}` } }).catch(
      (error: unknown) => {
        if (noRoomForLock) throw new DiskFullError("taking the data directory's lock (and no server answered)", config.dataDir, noRoomForLock);
        // Issue 32: "fetch failed" said nothing of where it knocked or what to do.
        throw new Error(unreachable(base, server, error));
      },
    );
    if (!response.ok || !response.body) throw new Error(await refusal(base, response));
    await pipeline(Readable.fromWeb(response.body), createWriteStream(partial, { mode: 0o600 })).catch((error: unknown) =>
      rethrowDiskFull(error, `writing the archive ${target}`, dirname(target)),
    );
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
  console.error(error instanceof DiskFullError ? `${error.message} No partial archive was left.` : (error as Error).message);
  process.exit(1);
}

/** Why the running server could not be asked: the address tried, the process holding the directory, and the settings that name its address. */
function unreachable(base: string, holder: DataDirLockedError | null, error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  const who = holder ? `the server using ${config.dataDir} (process ${holder.owner.pid} on ${holder.owner.host})` : `a server on ${config.dataDir}`;
  return [
    `Could not reach ${who} at ${base} (${why}).`,
    url
      ? "Check the address given with --url: the server's own port (PORT) on this machine."
      : `This command asks the port in PORT (${process.env.PORT ? `set to ${process.env.PORT}` : 'not set: 8080'}). If the server listens on another port, give the command the server's PORT (PORT=<its port> npm run backup -- ${file}) or its address (npm run backup -- ${file} --url http://127.0.0.1:<its port>).`,
  ].join('\n');
}

/** What the server answered instead of an archive. */
async function refusal(base: string, response: Response): Promise<string> {
  if (response.status === 404)
    return `The server at ${base} is not the one using ${config.dataDir}, or does not know this installation's secret (it answered 404). Pass the address of the server started with DATA_DIR=${config.dataDir}: --url http://127.0.0.1:<its port>`;
  const text = await response.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    // not JSON: shown as it came
  }
  if (response.status === 507) return `The server at ${base} could not make the backup: ${message}`;
  return `The server at ${base} refused the backup (${response.status}): ${message}`;
}
