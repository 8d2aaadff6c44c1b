import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { StoredChecksum } from './checksums.ts';
import { createKeyLock } from './key-lock.ts';

/**
 * Objects as files. A key's slash-separated segments become directories, so listing a
 * prefix only walks that part of the tree. Each object is a data file plus a JSON sidecar
 * (its metadata); the sidecar names the data file, and replacing the sidecar by rename is
 * what makes a write visible, so a reader never sees new metadata with old bytes.
 *
 *   objects/<seg>/<seg>/<last>~m.json   metadata
 *   objects/<seg>/<seg>/<last>~d.<id>   bytes
 *   objects/<seg>/<seg>/<last>~d.<id>/s00001, s00002, …   or the bytes as segments, in order
 *
 * Segments are how CompleteMultipartUpload makes an object without copying a byte (issue 14):
 * the parts' files are hard-linked into the object's data directory and read one after the
 * other as one stream (multipart.ts `linkParts`). A data file or directory that an overwrite or
 * a delete replaces while a reader still streams it is removed when that reader is done (a
 * single file stays readable through its open handle anyway; a directory's segments are opened
 * one by one as the stream reaches them, so it is kept until then). One process owns a data
 * directory (server/data-dir-lock.ts), so the readers are counted in memory.
 *
 * Segment names are encoded so any key is a safe, case-distinct file name on any platform:
 * [a-z0-9_-] and inner dots stay, capitals become `^` + lower case, everything else is
 * %XX of its UTF-8 bytes, an empty segment is `~e`, and an encoding longer than 200
 * characters becomes `~h` + its SHA-256 (file names are limited to 255 bytes).
 */

export interface ObjectMeta {
  key: string;
  size: number;
  /** Quoted, as S3 sends it: `"<md5>"` or `"<md5 of part md5s>-<parts>"`. */
  etag: string;
  /** ISO 8601. */
  lastModified: string;
  contentType: string;
  /** Representation headers replayed on GET/HEAD (cache-control, content-disposition, ...). */
  headers: Record<string, string>;
  /** x-amz-meta-* values by lower-case name without the prefix. */
  userMetadata: Record<string, string>;
  checksum?: StoredChecksum;
  /** Set for objects assembled by CompleteMultipartUpload. */
  partsCount?: number;
  /** Set when the bytes are stored as segment files (a multipart object): each one's size, in order. */
  segments?: number[];
  /** Name of the data file beside the sidecar. */
  dataFile: string;
}

export type NewObject = Omit<ObjectMeta, 'key' | 'dataFile'>;

/** An object's bytes, open for reading (a FileHandle is one). */
export interface ObjectBody {
  /** Bytes start..end, inclusive; with `autoClose` (the default) the body is released when the stream closes. */
  createReadStream(options: { start: number; end: number; autoClose?: boolean; highWaterMark?: number }): Readable;
  /** Releases the body (when it was not streamed with autoClose). */
  close(): Promise<void>;
}

export interface OpenedObject {
  meta: ObjectMeta;
  /** The object's bytes; stays readable even if the object is overwritten or deleted meanwhile. */
  handle: ObjectBody;
}

/** The file name of segment `index` (from 0) in a segmented object's data directory. */
export function segmentFileName(index: number): string {
  return `s${String(index + 1).padStart(5, '0')}`;
}

/** Reads segment files one after the other as one stream of bytes start..end. */
function segmentedBody(dir: string, sizes: readonly number[], release: () => void): ObjectBody {
  let released = false;
  const done = () => {
    if (released) return;
    released = true;
    release();
  };
  async function* bytes(start: number, end: number, highWaterMark: number | undefined): AsyncGenerator<Buffer> {
    let offset = 0;
    for (const [index, size] of sizes.entries()) {
      const first = offset;
      offset += size;
      if (size === 0 || offset <= start || first > end) continue;
      const from = Math.max(start, first) - first;
      const to = Math.min(end, offset - 1) - first;
      for await (const chunk of createReadStream(join(dir, segmentFileName(index)), { start: from, end: to, ...(highWaterMark && { highWaterMark }) }))
        yield chunk as Buffer;
    }
  }
  return {
    createReadStream({ start, end, autoClose = true, highWaterMark }) {
      const stream = Readable.from(bytes(start, end, highWaterMark), { objectMode: false });
      if (autoClose) stream.once('close', done);
      return stream;
    },
    close: async () => done(),
  };
}

/**
 * The store's directories and files are its owner's only (issue 32): objects are customers'
 * footage, and the store's files were readable by every account on the machine (0755/0644).
 */
/** Larger reads than the 64 KiB default: fewer syscalls and socket writes for multi-GB videos. */
export const READ_CHUNK_BYTES = 1024 * 1024;

export const STORE_DIR_MODE = 0o700;
export const STORE_FILE_MODE = 0o600;

export interface ObjectListing {
  /** Sorted by key in UTF-8 byte order, as S3 lists. */
  objects: ObjectMeta[];
  commonPrefixes: string[];
}

export interface ObjectFiles {
  /** A fresh path in the temp directory (same file system, so commits are renames). */
  newTempPath(): string;
  /**
   * Makes the file at tempPath the object's bytes; the temp file is consumed. `precondition`
   * sees the current object under the key's lock and may throw to refuse the write (conditional PUT).
   */
  commit(key: string, tempPath: string, object: NewObject, precondition?: (current: ObjectMeta | null) => void): Promise<ObjectMeta>;
  head(key: string): Promise<ObjectMeta | null>;
  open(key: string): Promise<OpenedObject | null>;
  /** True when there was an object to remove. */
  remove(key: string): Promise<boolean>;
  list(prefix: string, delimiter: string | undefined): Promise<ObjectListing>;
}

const META_SUFFIX = '~m.json';
const DATA_MARK = '~d.';
const MAX_ENCODED_SEGMENT = 200;

function encodeSegment(segment: string): string {
  if (segment === '') return '~e';
  let out = '';
  for (const ch of segment) {
    if (/[a-z0-9_-]/.test(ch) || (ch === '.' && out !== '')) out += ch;
    else if (/[A-Z]/.test(ch)) out += `^${ch.toLowerCase()}`;
    else for (const byte of Buffer.from(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out.length > MAX_ENCODED_SEGMENT ? `~h${createHash('sha256').update(segment).digest('hex')}` : out;
}

/** The segment a directory name stands for, or null for hashed names (not reversible). */
function decodeSegment(name: string): string | null {
  if (name === '~e') return '';
  if (name.startsWith('~h')) return null;
  try {
    return decodeURIComponent(name.replace(/\^([a-z])/g, (_match, letter: string) => letter.toUpperCase()));
  } catch {
    return null;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function readMetaFile(path: string): Promise<ObjectMeta | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as ObjectMeta;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export async function openObjectFiles(objectsDir: string, tmpDir: string): Promise<ObjectFiles> {
  await mkdir(objectsDir, { recursive: true, mode: STORE_DIR_MODE });
  await mkdir(tmpDir, { recursive: true, mode: STORE_DIR_MODE });
  const lock = createKeyLock();
  // Data directories being read (path → readers), and those replaced meanwhile, removed when the last reader is done.
  const readers = new Map<string, number>();
  const doomed = new Set<string>();
  const pin = (path: string) => readers.set(path, (readers.get(path) ?? 0) + 1);
  const unpin = (path: string) => {
    const left = (readers.get(path) ?? 1) - 1;
    if (left > 0) return void readers.set(path, left);
    readers.delete(path);
    if (doomed.delete(path)) void rm(path, { recursive: true, force: true, maxRetries: 3 }).then(() => pruneEmptyDirs(dirname(path)));
  };
  /** Removes a replaced or deleted object's bytes, at once or after its last reader. */
  const discard = async (path: string): Promise<void> => {
    if (readers.has(path)) doomed.add(path);
    else await rm(path, { recursive: true, force: true, maxRetries: 3 });
  };

  const newTempPath = (): string => join(tmpDir, randomUUID());

  const locate = (key: string): { dir: string; base: string; metaPath: string } => {
    const segments = key.split('/').map(encodeSegment);
    const base = segments.pop() ?? '~e';
    const dir = join(objectsDir, ...segments);
    return { dir, base, metaPath: join(dir, base + META_SUFFIX) };
  };

  /** Renames into a directory a concurrent removal may just have pruned; recreating it once more is enough. */
  const renameInto = async (from: string, to: string): Promise<void> => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await mkdir(dirname(to), { recursive: true, mode: STORE_DIR_MODE });
        await rename(from, to);
        return;
      } catch (error) {
        if (!isMissing(error) || attempt >= 3) throw error;
      }
    }
  };

  const pruneEmptyDirs = async (start: string): Promise<void> => {
    for (let dir = start; dir.startsWith(objectsDir) && dir !== objectsDir; dir = dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        return;
      }
    }
  };

  const head = async (key: string): Promise<ObjectMeta | null> => readMetaFile(locate(key).metaPath);

  const commit = async (key: string, tempPath: string, object: NewObject, precondition?: (current: ObjectMeta | null) => void): Promise<ObjectMeta> => {
    const { dir, base, metaPath } = locate(key);
    return lock.run(key, async () => {
      const previous = await readMetaFile(metaPath);
      precondition?.(previous);
      const dataFile = `${base}${DATA_MARK}${randomBytes(8).toString('hex')}`;
      await renameInto(tempPath, join(dir, dataFile));
      const meta: ObjectMeta = { key, ...object, dataFile };
      const metaTemp = newTempPath();
      try {
        await writeFile(metaTemp, JSON.stringify(meta), { mode: STORE_FILE_MODE });
        await renameInto(metaTemp, metaPath);
      } catch (error) {
        // No room for the sidecar (a full disk, issue 32): the key keeps what it had, and neither
        // the new bytes nor a half-written sidecar stay behind.
        await rm(metaTemp, { force: true });
        await rm(join(dir, dataFile), { recursive: true, force: true, maxRetries: 3 });
        await pruneEmptyDirs(dir);
        throw error;
      }
      if (previous && previous.dataFile !== dataFile) await discard(join(dir, previous.dataFile));
      return meta;
    });
  };

  const openObject = async (key: string): Promise<OpenedObject | null> => {
    const { dir, metaPath } = locate(key);
    // An overwrite can remove the data file between reading the sidecar and opening it;
    // the sidecar read again then names the new one.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const meta = await readMetaFile(metaPath);
      if (!meta) return null;
      const path = join(dir, meta.dataFile);
      try {
        if (!meta.segments) return { meta, handle: await open(path, 'r') };
        // Pinned before it is looked at, so a concurrent overwrite leaves it until this reader is done.
        pin(path);
        try {
          await stat(path);
        } catch (error) {
          unpin(path);
          throw error;
        }
        return { meta, handle: segmentedBody(path, meta.segments, () => unpin(path)) };
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    return null;
  };

  const remove = async (key: string): Promise<boolean> => {
    const { dir, metaPath } = locate(key);
    return lock.run(key, async () => {
      const meta = await readMetaFile(metaPath);
      if (!meta) return false;
      await rm(metaPath, { force: true });
      await discard(join(dir, meta.dataFile));
      await pruneEmptyDirs(dir);
      return true;
    });
  };

  const containsObject = async (dir: string): Promise<boolean> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    });
    if (entries.some((entry) => entry.isFile() && entry.name.endsWith(META_SUFFIX))) return true;
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.includes(DATA_MARK) && (await containsObject(join(dir, entry.name)))) return true;
    }
    return false;
  };

  const list = async (prefix: string, delimiter: string | undefined): Promise<ObjectListing> => {
    const objects: ObjectMeta[] = [];
    const commonPrefixes = new Set<string>();

    const addKey = (meta: ObjectMeta): void => {
      if (!meta.key.startsWith(prefix)) return;
      const cut = delimiter ? meta.key.indexOf(delimiter, prefix.length) : -1;
      if (delimiter && cut !== -1) commonPrefixes.add(meta.key.slice(0, cut + delimiter.length));
      else objects.push(meta);
    };

    // `path` is the decoded key prefix this directory stands for, null below a hashed name.
    const visit = async (dir: string, path: string | null): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for (const entry of entries) {
        if (entry.isFile() && entry.name.endsWith(META_SUFFIX)) {
          const segment = decodeSegment(entry.name.slice(0, -META_SUFFIX.length));
          if (path !== null && segment !== null && !`${path}${segment}`.startsWith(prefix)) continue;
          const meta = await readMetaFile(join(dir, entry.name));
          if (meta) addKey(meta);
          continue;
        }
        // A segmented object's data directory holds bytes, not keys.
        if (!entry.isDirectory() || entry.name.includes(DATA_MARK)) continue;
        const segment = decodeSegment(entry.name);
        const childPath = path !== null && segment !== null ? `${path}${segment}/` : null;
        if (childPath !== null) {
          if (!childPath.startsWith(prefix) && !prefix.startsWith(childPath)) continue;
          // With '/' as delimiter a directory past the prefix is one common prefix: only
          // whether it holds any object matters, not what.
          if (delimiter === '/' && childPath.length > prefix.length && childPath.startsWith(prefix)) {
            const commonPrefix = childPath.slice(0, childPath.indexOf('/', prefix.length) + 1);
            if (!commonPrefixes.has(commonPrefix) && (await containsObject(join(dir, entry.name)))) commonPrefixes.add(commonPrefix);
            continue;
          }
        }
        await visit(join(dir, entry.name), childPath);
      }
    };

    await visit(objectsDir, '');
    const byKey = (a: ObjectMeta, b: ObjectMeta): number => compareKeys(a.key, b.key);
    return { objects: objects.sort(byKey), commonPrefixes: [...commonPrefixes].sort(compareKeys) };
  };

  return { newTempPath, commit, head, open: openObject, remove, list };
}
