/**
 * The prepared database image (issue 14 "Start-up"): PGlite's initdb takes 2–3 s, most of a first
 * start. A fresh embedded database is instead unpacked from an image: a tarball of a data
 * directory made by PGlite (`dumpDataDir`) right after initdb and every migration, before any
 * row of this installation (no demo data, no password hash, no secret: those live in the
 * data directory's own files or are written by the seed afterwards).
 *
 * The image is a cache on this machine, never shipped: the first fresh start without one makes
 * the database the usual way and leaves its dump in `node_modules/.cache/cutdesk/` (or
 * CUTDESK_CACHE_DIR), named by the PGlite version and a hash of the migrations, so a PGlite
 * upgrade or a new migration makes a new image by itself.
 *
 * Each database unpacked from it gets a new system identifier (PostgreSQL's initdb makes one per
 * database cluster; `npm run move-data` tells installations apart by it): written into
 * `global/pg_control` (with its CRC) and into the first page of each WAL segment, where
 * PostgreSQL checks it on start.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

/** Where images are kept: CUTDESK_CACHE_DIR, else node_modules/.cache/cutdesk of this project. */
export function imageCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CUTDESK_CACHE_DIR ? resolve(env.CUTDESK_CACHE_DIR) : fileURLToPath(new URL('../../node_modules/.cache/cutdesk', import.meta.url));
}

/** A name for this list of migrations (`names` with their code): any change to one changes it. */
export function migrationsHash(migrations: Record<string, { up: unknown; down?: unknown }>): string {
  const hash = createHash('sha256');
  for (const [name, migration] of Object.entries(migrations)) hash.update(`${name}\n${String(migration.up)}\n${String(migration.down)}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** The image's file for this PGlite version and these migrations. */
export function imageFile(cacheDir: string, pgliteVersion: string, migrations: Record<string, { up: unknown; down?: unknown }>): string {
  return join(cacheDir, `pglite-image-${pgliteVersion}-${migrationsHash(migrations)}.tar.gz`);
}

/**
 * Writes the dump (a tarball) gzipped into `file`, atomically. At once (≈ 0.2 s, gzip level 1:
 * 42 MB of mostly empty pages become ≈ 5.5 MB), not in the background: a first start that is
 * stopped right away must still leave the image. Failures only cost the next start its shortcut.
 *
 * The first image saved stays: processes that found no image at the same moment (the test
 * workers of a new machine) each make one, and every database then loaded comes from the same
 * one. (Images made apart differ in when the migrations ran; a test comparing two databases saw it.)
 */
export function saveImage(file: string, tarball: Uint8Array): void {
  const draft = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(draft, gzipSync(tarball, { level: 1 }));
    try {
      linkSync(draft, file);
    } catch (error) {
      // Already there: another process saved first, and its image is kept, unless it is damaged
      // (then this one replaces it). A file system without hard links takes the rename (the last
      // image saved wins there).
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !readableImage(file)) renameSync(draft, file);
    }
    rmSync(draft, { force: true });
  } catch {
    // read-only node_modules, full disk: the next new data directory is made the usual way (and
    // a draft the disk had no room for is not left behind)
    rmSync(draft, { force: true });
  }
}

/** Whether `file` unpacks (an image another process saved, or a damaged one). */
function readableImage(file: string): boolean {
  try {
    return gunzipSync(readFileSync(file)).length > 0;
  } catch {
    return false;
  }
}

/** Reads a ustar field (NUL-terminated). */
function field(buf: Buffer, start: number, length: number): string {
  const end = buf.indexOf(0, start);
  return buf.toString('utf8', start, end === -1 || end > start + length ? start + length : end);
}

/** CRC-32C (Castagnoli), as PostgreSQL computes pg_control's checksum. */
const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * Gives pg_control a new system identifier (its first 8 bytes) and recomputes its CRC, which
 * follows the checked part of the struct: found as the one offset where the stored CRC matches.
 * Answers the old identifier, or null when the file does not look like pg_control.
 */
export function renewSystemIdentifier(control: Buffer, identifier: Buffer): Buffer | null {
  for (let at = 16; at + 4 <= Math.min(control.length, 1024); at += 4) {
    if (control.readUInt32LE(at) !== crc32c(control.subarray(0, at))) continue;
    const old = Buffer.from(control.subarray(0, 8));
    identifier.copy(control, 0, 0, 8);
    control.writeUInt32LE(crc32c(control.subarray(0, at)), at);
    return old;
  }
  return null;
}

/** The long header of a WAL segment's first page holds the system identifier at byte 24. */
const WAL_SYSID_OFFSET = 24;

/** One entry of an image's tarball: a path inside the database directory, and a file's bytes (a view into the tarball). */
interface ImageEntry {
  path: string;
  data: Buffer | null;
}

/**
 * Reads the image `file` and gives it a new system identifier: the tarball (changed in place)
 * and its entries. Throws when the image is not what this code wrote.
 */
function readImage(file: string): { tar: Buffer; entries: ImageEntry[] } {
  return renewImage(gunzipSync(readFileSync(file)), file);
}

/** `tar`, an image's unpacked tarball, given a new system identifier in place; and its entries. */
function renewImage(tar: Buffer, file: string): { tar: Buffer; entries: ImageEntry[] } {
  const entries: ImageEntry[] = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const name = field(tar, at, 100);
    if (!name) break;
    const prefix = field(tar, at + 345, 155);
    const size = parseInt(field(tar, at + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(tar[at + 156]!);
    const path = normalize(`${prefix}/${name}`).replace(/^[/\\]+/, '');
    if (path.startsWith('..') || isAbsolute(path) || Number.isNaN(size)) throw new Error(`unexpected entry ${prefix}/${name} in ${file}`);
    if (type === '5') entries.push({ path, data: null });
    else if (type === '0' || type === '\0') entries.push({ path, data: tar.subarray(at + 512, at + 512 + size) });
    else throw new Error(`unexpected entry type ${type} in ${file}`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  const control = entries.find((entry) => entry.path === join('global', 'pg_control'))?.data;
  if (!control) throw new Error(`${file} holds no pg_control`);
  const identifier = randomBytes(8);
  const old = renewSystemIdentifier(control, identifier);
  if (!old) throw new Error(`${file}: pg_control not recognised`);
  for (const { path, data } of entries) {
    if (!data || !path.startsWith(join('pg_wal') + sep) || !/^[0-9A-F]{24}$/.test(path.slice(-24))) continue;
    if (data.length >= WAL_SYSID_OFFSET + 8 && data.subarray(WAL_SYSID_OFFSET, WAL_SYSID_OFFSET + 8).equals(old)) identifier.copy(data, WAL_SYSID_OFFSET);
  }
  return { tar, entries };
}

/**
 * Unpacks the image `file` into `dir` (a new, empty database directory) with a new system
 * identifier. Throws when the image is not what this code wrote (the caller then makes the
 * database the usual way).
 */
export function unpackImage(file: string, dir: string): void {
  const { entries } = readImage(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const { path, data } of entries) {
    const target = join(dir, path);
    if (!data) {
      mkdirSync(target, { recursive: true, mode: 0o700 });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    writeFileSync(target, data, { mode: 0o600 });
  }
}

/**
 * The last image unpacked for an in-memory database, kept: the test servers of one process open
 * dozens of in-memory databases from the same image, and gunzipping 42 MB took about a tenth of
 * each open. Checked against the file's size and time, so a new image is read again.
 */
let unpacked: { file: string; mtimeMs: number; size: number; tar: Buffer } | null = null;

function unpackedImage(file: string): Buffer {
  const { mtimeMs, size } = statSync(file);
  if (unpacked?.file !== file || unpacked.mtimeMs !== mtimeMs || unpacked.size !== size)
    unpacked = { file, mtimeMs, size, tar: gunzipSync(readFileSync(file)) };
  return unpacked.tar;
}

/**
 * The image `file` as a tarball for PGlite's `loadDataDir` (an in-memory database), with a new
 * system identifier; null when there is no image yet or it is not one this code wrote.
 */
export function imageTarball(file: string): Blob | null {
  try {
    const tar = Buffer.from(unpackedImage(file));
    renewImage(tar, file);
    return new Blob([tar], { type: 'application/x-tar' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      console.warn(`The database image ${file} was not used (${(error as Error).message}); creating the database.`);
    return null;
  }
}

/** The image for this PGlite version and the current migrations (which are loaded for it). */
export async function currentImageFile(): Promise<string> {
  const { MIGRATIONS } = await import('../migrations/index.ts');
  return imageFile(imageCacheDir(), pgliteVersion(), MIGRATIONS);
}

/**
 * The image a new database directory `dir` starts from (named after the migrations, loaded for
 * this case only), or null when `dir` already holds a database.
 */
export async function imageForNewDirectory(dir: string): Promise<string | null> {
  return isNewDatabaseDir(dir) ? currentImageFile() : null;
}

/**
 * Unpacks `image` into the new directory `dir`; false when it cannot (no image yet, or one this
 * code did not write): `dir` is then left empty for initdb (made 0700 here: PGlite would make it
 * readable by all), and the caller makes the image.
 */
export function startFromImage(image: string, dir: string): boolean {
  try {
    unpackImage(image, dir);
    return true;
  } catch (error) {
    discard(dir);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // PGlite makes it then, and says why it cannot
    }
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      console.warn(`The database image ${image} was not used (${(error as Error).message}); creating the database.`);
    return false;
  }
}

/** Whether `dir` has no database yet (missing or empty): the case an image is for. */
export function isNewDatabaseDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** The installed PGlite's version (its package.json beside dist/). */
export function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** Removes a half-unpacked database directory. */
export function discard(dir: string): void {
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}
