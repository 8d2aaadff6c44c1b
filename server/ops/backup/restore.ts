import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { extract, type ReadEntry } from 'tar';
import { diskFullMessage, isDiskFull } from '../../storage/disk-full.ts';
import { BACKUP_FORMAT, sha256Of, type BackupManifest } from './archive.ts';

export interface RestoreReport {
  /** Rows per table of the restored database. */
  tables: Record<string, number>;
  objects: number;
  bytes: number;
  /** Objects missing from the archive or not matching the manifest's size or checksum, by path. */
  mismatches: string[];
  /** The external object store the objects stayed in (not in the archive), or null. */
  objectsElsewhere: string | null;
}

export class RestoreRefusedError extends Error {}

/** A restore that stopped half-way; nothing of it was left (the message says what failed and so). */
export class RestoreFailedError extends Error {}

/** What the restore puts in the data directory: the store, the secrets, the database. */
const RESTORED = ['s3', 'jwt-secret', 's3-credentials.json', 'db'] as const;

/**
 * Where a restore builds the data directory before it is put in place (issue 32: a restore that
 * failed half-way left a half-filled directory). A directory that does not exist yet is built
 * beside it (`.<name>.restoring-…`, 0700) and renamed into place when complete. One that exists
 * (empty) is kept — it may be a mount point, or owned by the service's account with a parent this
 * user cannot write — and the restore is built in a hidden directory inside it whose entries are
 * renamed up when complete (the same file system: renames only).
 */
interface Workspace {
  dir: string;
  finish(): Promise<void>;
  discard(): Promise<void>;
}

async function workspaceFor(dataDir: string): Promise<Workspace> {
  if (!existsSync(dataDir)) {
    await mkdir(dirname(dataDir), { recursive: true });
    const dir = await mkdtemp(join(dirname(dataDir), `.${basename(dataDir)}.restoring-`));
    return {
      dir,
      finish: () => rename(dir, dataDir),
      discard: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const dir = await mkdtemp(join(dataDir, '.restoring-'));
  return {
    dir,
    async finish() {
      const moved: string[] = [];
      try {
        for (const name of RESTORED) {
          if (!existsSync(join(dir, name))) continue;
          await rename(join(dir, name), join(dataDir, name));
          moved.push(name);
        }
      } catch (error) {
        for (const name of moved) await rename(join(dataDir, name), join(dir, name)).catch(() => undefined);
        throw error;
      }
      await rmdir(dir);
    },
    discard: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Everything restored is its owner's only (issue 32), whatever modes the archive recorded. */
function ownerOnly(_path: string, entry: ReadEntry | { mode?: number }): boolean {
  if ('type' in entry) entry.mode = entry.type === 'Directory' ? 0o700 : 0o600;
  return true;
}

/**
 * Extracts the archive `file` into `dir`, every entry written or failed before this returns (with
 * `strict` the promise rejected at the first failure while other entries were still being written,
 * so the workspace could not be removed after a full disk), then throws the first failure.
 */
async function extractWhole(file: string, dir: string): Promise<void> {
  const failures: unknown[] = [];
  await extract({
    file,
    cwd: dir,
    filter: ownerOnly,
    onwarn: (code, message, data) => {
      // tar hands a failed write's own error (ENOSPC) as `data`.
      if (code !== 'TAR_ENTRY_INFO') failures.push(data instanceof Error ? data : Object.assign(new Error(`${code}: ${String(message)}`), { code }));
    },
  });
  if (failures.length) throw failures[0];
}

/**
 * Restores the backup `file` into `dataDir`, which must be empty or absent: the database from its
 * dump, the store's objects (each checked against the manifest's size and SHA-256), the secrets.
 * Nothing is overwritten, and nothing is put in place until everything was restored: a restore
 * that fails half-way (a damaged archive, a full disk) leaves `dataDir` as it found it and throws
 * a RestoreFailedError that says so. The report names every object that did not match the
 * manifest; the caller decides the exit code (the rest is restored all the same).
 */
export async function restoreBackup(file: string, dataDir: string): Promise<RestoreReport> {
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0)
    throw new RestoreRefusedError(`The data directory ${dataDir} is not empty. Restore into an empty (or new) directory: nothing is overwritten.`);
  if (!existsSync(file)) throw new RestoreRefusedError(`There is no backup at ${file}.`);
  const existed = existsSync(dataDir);
  let workspace: Workspace | null = null;
  try {
    workspace = await workspaceFor(dataDir);
    const into = workspace.dir;
    const staging = join(into, '.archive');
    await mkdir(staging, { mode: 0o700 });
    await extractWhole(file, staging);
    const manifest = JSON.parse(await readFile(join(staging, 'manifest.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== BACKUP_FORMAT)
      throw new RestoreRefusedError(`This backup has format ${String(manifest.format)}; this version reads format ${BACKUP_FORMAT}.`);
    const mismatches: string[] = [];
    let bytes = 0;
    for (const object of manifest.objects) {
      const path = join(staging, 's3', object.path);
      const size = existsSync(path) ? (await stat(path)).size : -1;
      if (size !== object.size || (await sha256Of(path)) !== object.sha256) mismatches.push(object.path);
      else bytes += size;
    }
    await rename(join(staging, 's3'), join(into, 's3'));
    for (const name of ['jwt-secret', 's3-credentials.json']) if (existsSync(join(staging, name))) await rename(join(staging, name), join(into, name));
    const tables = await loadDatabase(join(staging, 'db.tar.gz'), join(into, 'db'));
    await rm(staging, { recursive: true, force: true });
    await workspace.finish();
    return { tables, objects: manifest.objects.length - mismatches.length, bytes, mismatches, objectsElsewhere: manifest.objectsElsewhere ?? null };
  } catch (error) {
    await workspace?.discard().catch(() => undefined);
    if (error instanceof RestoreRefusedError) throw error;
    const left = `Nothing was left behind: ${dataDir} ${existed ? 'is as empty as it was' : 'was not created'}.`;
    if (isDiskFull(error))
      throw new RestoreFailedError(`${diskFullMessage(`restoring ${file} into ${dataDir}`, existed ? dataDir : dirname(dataDir))} ${left}`, { cause: error });
    throw new RestoreFailedError(`The restore of ${file} failed: ${describe(error)}. ${left}`, { cause: error });
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  const { name, errno } = (error ?? {}) as { name?: unknown; errno?: unknown };
  // PGlite's file system throws plain objects (server/db/pglite-protocol.ts).
  if (name === 'ErrnoError') return `the database's files could not be written (file system error ${String(errno)})`;
  return String(error);
}

/** Creates the embedded database in `dbDir` from PGlite's dump, and counts each table's rows. */
async function loadDatabase(dump: string, dbDir: string): Promise<Record<string, number>> {
  const { PGlite } = await import('@electric-sql/pglite');
  await mkdir(dbDir, { mode: 0o700 });
  const pglite = await PGlite.create(dbDir, { loadDataDir: new Blob([await readFile(dump)]) });
  try {
    return await countRows(pglite);
  } finally {
    await pglite.close();
  }
}

/** Rows of every table of the public schema, by name. */
export async function countRows(pglite: { query: <T>(sql: string) => Promise<{ rows: T[] }> }): Promise<Record<string, number>> {
  const { rows } = await pglite.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of rows) {
    const [row] = (await pglite.query<{ n: number }>(`select count(*)::int as n from "${name.replace(/"/g, '""')}"`)).rows;
    counts[name] = row?.n ?? 0;
  }
  return counts;
}
