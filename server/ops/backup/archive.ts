import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { EmbeddedPglite } from '../../db/connect.ts';
import { isDiskFull, rethrowDiskFull } from '../../storage/disk-full.ts';
import { create } from 'tar';

/**
 * A backup of an embedded installation (issue 15): one tar file holding the database (PGlite's
 * own dump of its data directory), every object of the embedded store, the two secrets that make
 * the restored server accept its sessions, media links and stored credentials (`jwt-secret`,
 * `s3-credentials.json`), and a manifest with each object's size and SHA-256.
 *
 * Consistent while the server runs: the database is dumped first, between two statements of its
 * single connection (PGlite runs one at a time), which is a committed state; the objects are then
 * hard-linked into a staging directory in one walk (no byte copied, so it takes a moment) and
 * archived from there. Objects are written to a temp file and renamed into place, and customers'
 * uploads are never overwritten, so every object the dumped database names is already there and
 * complete; objects created after the dump are in the archive too, unreferenced and harmless.
 */

export const BACKUP_FORMAT = 1;
/** The secrets the restored server needs (never logged; the archive is written 0600). */
const SECRET_FILES = ['jwt-secret', 's3-credentials.json'] as const;
/** The store's own temp directory: writes in progress, never objects. */
const STORE_TEMP = '.tmp';

export interface BackupObject {
  /** Relative to the store's directory (`DATA_DIR/s3`). */
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  objects: BackupObject[];
  /** The external object store (`endpoint/bucket`) the objects are in, not in the archive; null or absent: the embedded store's, archived. */
  objectsElsewhere?: string | null;
}

async function* filesUnder(root: string, dir = root): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (dir === root && entry.name === STORE_TEMP) continue;
      yield* filesUnder(root, path);
    } else if (entry.isFile()) yield path;
  }
}

/** Hard-links every committed file of the store into `into` (same file system), keeping the tree. */
async function linkStore(storeDir: string, into: string): Promise<number> {
  let count = 0;
  for await (const file of filesUnder(storeDir)) {
    const target = join(into, relative(storeDir, file));
    await mkdir(join(target, '..'), { recursive: true });
    try {
      await link(file, target);
      count += 1;
    } catch (error) {
      // Removed since the walk listed it (a derived file replaced, an abandoned upload swept): not part of any state the dump names.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return count;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

async function describeObjects(storeDir: string): Promise<BackupObject[]> {
  const objects: BackupObject[] = [];
  for await (const file of filesUnder(storeDir)) objects.push({ path: relative(storeDir, file), size: (await stat(file)).size, sha256: await sha256Of(file) });
  return objects.sort((a, b) => a.path.localeCompare(b.path));
}

/** The installation to back up: its data directory, its embedded database open, and where its objects are when not in the embedded store. */
interface BackupSource {
  pglite: EmbeddedPglite;
  dataDir: string;
  objectsElsewhere?: string | null;
}

/** A backup staged in the data directory: its database dump, linked objects and secrets. */
export interface StagedBackup {
  /** Describes the objects (their SHA-256), writes the archive to `output` and removes the staging, whatever happens. */
  writeTo(output: Writable): Promise<BackupManifest>;
  /** Removes the staging without writing anything. */
  discard(): Promise<void>;
}

/**
 * Stages the backup of the installation in `dataDir` (its database open as `pglite`): everything
 * the backup writes into the data directory happens here (the database's dump, the objects
 * linked, the secrets), so a full disk is known before an answer starts (issue 32) — it throws
 * a DiskFullError and leaves no staging behind. Staging lives in `dataDir` (hard links need the
 * same file system).
 */
export async function stageBackup(source: BackupSource): Promise<StagedBackup> {
  let staging: string | null = null;
  try {
    staging = await mkdtemp(join(source.dataDir, '.backup-'));
    const dump = await source.pglite.dumpDataDir('gzip');
    await writeFile(join(staging, 'db.tar.gz'), Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    const storeDir = join(source.dataDir, 's3');
    const stagedStore = join(staging, 's3');
    await mkdir(stagedStore, { mode: 0o700 });
    // An external object store keeps the objects (and its own backups): the archive holds none,
    // not even what an earlier embedded store left in DATA_DIR/s3.
    if (!source.objectsElsewhere) {
      await linkStore(storeDir, stagedStore).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
    for (const name of SECRET_FILES)
      await copyFile(join(source.dataDir, name), join(staging, name)).catch((error: unknown) => {
        if (isDiskFull(error)) throw error;
      });
  } catch (error) {
    if (staging) await rm(staging, { recursive: true, force: true });
    rethrowDiskFull(error, "staging the backup in the data directory (the database's dump beside the objects' hard links)", source.dataDir);
  }
  const dir = staging;
  const discard = () => rm(dir, { recursive: true, force: true });
  return {
    discard,
    async writeTo(output) {
      try {
        const manifest: BackupManifest = {
          format: BACKUP_FORMAT,
          createdAt: new Date().toISOString(),
          objects: await describeObjects(join(dir, 's3')),
          objectsElsewhere: source.objectsElsewhere ?? null,
        };
        await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest), { mode: 0o600 }).catch((error: unknown) =>
          rethrowDiskFull(error, "staging the backup's manifest in the data directory", source.dataDir),
        );
        const entries = ['manifest.json', 'db.tar.gz', 's3', ...(await readdir(dir)).filter((name) => (SECRET_FILES as readonly string[]).includes(name))];
        await pipeline(create({ cwd: dir, portable: true }, entries), output);
        return manifest;
      } finally {
        await discard();
      }
    },
  };
}

/**
 * Writes the backup to `file` (readable by its owner only: it holds the installation's secrets).
 * A full disk where the file is written is a DiskFullError naming the archive (`name`, the file
 * it becomes when complete) and its directory.
 */
export async function writeBackupFile(source: BackupSource, file: string, name = file): Promise<BackupManifest> {
  const staged = await stageBackup(source);
  const output = createWriteStream(file, { mode: 0o600 });
  return staged.writeTo(output).catch((error: unknown) => {
    output.destroy();
    return rethrowDiskFull(error, `writing the archive ${name}`, dirname(file));
  });
}
