import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { extract } from 'tar';
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

/**
 * Restores the backup `file` into `dataDir`, which must be empty or absent: the database from its
 * dump, the store's objects (each checked against the manifest's size and SHA-256), the secrets.
 * Nothing is overwritten. The report names every mismatch; the caller decides the exit code.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<RestoreReport> {
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) throw new RestoreRefusedError(`The data directory ${dataDir} is not empty. Restore into an empty (or new) directory: nothing is overwritten.`);
  await mkdir(dataDir, { recursive: true });
  const staging = join(dataDir, '.restore');
  await mkdir(staging);
  try {
    await extract({ file, cwd: staging, strict: true });
    const manifest = JSON.parse(await readFile(join(staging, 'manifest.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== BACKUP_FORMAT) throw new RestoreRefusedError(`This backup has format ${String(manifest.format)}; this version reads format ${BACKUP_FORMAT}.`);
    const mismatches: string[] = [];
    let bytes = 0;
    for (const object of manifest.objects) {
      const path = join(staging, 's3', object.path);
      const size = existsSync(path) ? (await stat(path)).size : -1;
      if (size !== object.size || (await sha256Of(path)) !== object.sha256) mismatches.push(object.path);
      else bytes += size;
    }
    await rename(join(staging, 's3'), join(dataDir, 's3'));
    for (const name of ['jwt-secret', 's3-credentials.json']) if (existsSync(join(staging, name))) await rename(join(staging, name), join(dataDir, name));
    const tables = await loadDatabase(join(staging, 'db.tar.gz'), join(dataDir, 'db'));
    return { tables, objects: manifest.objects.length - mismatches.length, bytes, mismatches, objectsElsewhere: manifest.objectsElsewhere ?? null };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Creates the embedded database in `dbDir` from PGlite's dump, and counts each table's rows. */
async function loadDatabase(dump: string, dbDir: string): Promise<Record<string, number>> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create(dbDir, { loadDataDir: new Blob([await readFile(dump)]) });
  try {
    return await countRows(pglite);
  } finally {
    await pglite.close();
  }
}

/** Rows of every table of the public schema, by name. */
export async function countRows(pglite: { query: <T>(sql: string) => Promise<{ rows: T[] }> }): Promise<Record<string, number>> {
  const { rows } = await pglite.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  const counts: Record<string, number> = {};
  for (const { name } of rows) {
    const [row] = (await pglite.query<{ n: number }>(`select count(*)::int as n from "${name.replace(/"/g, '""')}"`)).rows;
    counts[name] = row?.n ?? 0;
  }
  return counts;
}
