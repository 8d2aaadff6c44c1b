import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ChecksumAlgorithm } from './checksums.ts';
import { createKeyLock } from './key-lock.ts';
import { STORE_DIR_MODE, STORE_FILE_MODE, segmentFileName } from './object-files.ts';
import { S3Error } from './s3-error.ts';

/**
 * Multipart uploads in progress: one directory per upload with its record and every part
 * as a file (plus a small JSON with the part's ETag), kept until Complete hard-links the
 * chosen parts into the object's data directory as its segments (no byte copied; streamed into
 * one file only where the file system has no hard links), or Abort removes them.
 *
 *   uploads/<uploadId>/upload.json
 *   uploads/<uploadId>/part-00001.json
 *   uploads/<uploadId>/part-00001~d.<id>
 */

export interface UploadRecord {
  uploadId: string;
  key: string;
  /** ISO 8601; ListMultipartUploads reports it so stale uploads can be cleaned up. */
  initiated: string;
  contentType: string;
  headers: Record<string, string>;
  userMetadata: Record<string, string>;
  checksumAlgorithm?: ChecksumAlgorithm;
  checksumType?: 'COMPOSITE' | 'FULL_OBJECT';
}

export interface PartRecord {
  partNumber: number;
  /** Quoted md5 of the part. */
  etag: string;
  size: number;
  lastModified: string;
  checksum?: { algorithm: ChecksumAlgorithm; value: string };
  dataFile: string;
}

export type NewUpload = Omit<UploadRecord, 'uploadId' | 'initiated'>;
export type NewPart = Omit<PartRecord, 'partNumber' | 'dataFile'>;

export interface MultipartFiles {
  create(upload: NewUpload): Promise<UploadRecord>;
  get(uploadId: string): Promise<UploadRecord | null>;
  /** Stores the file at tempPath as the part (replacing an earlier upload of that number); the temp file is consumed. */
  putPart(uploadId: string, partNumber: number, tempPath: string, part: NewPart): Promise<PartRecord>;
  /** Parts by ascending number. */
  listParts(uploadId: string): Promise<PartRecord[]>;
  listUploads(): Promise<UploadRecord[]>;
  /** Streams the given parts, in order, into a new file at tempPath. */
  assemble(uploadId: string, parts: PartRecord[], tempPath: string): Promise<void>;
  /**
   * Hard-links the given parts, in order, into a new directory at tempDir as segment files
   * (object-files.ts): the object's bytes without copying them. The upload keeps its parts, so a
   * refused completion leaves it as it was. False when the file system cannot link (nothing made).
   */
  linkParts(uploadId: string, parts: PartRecord[], tempDir: string): Promise<boolean>;
  /** True when there was an upload to remove. */
  remove(uploadId: string): Promise<boolean>;
  /**
   * Takes the upload for one CompleteMultipartUpload or AbortMultipartUpload: the release
   * function, or null when another call holds it. Concurrent completions of one upload would
   * otherwise all assemble it, and the losers read parts the winner already removed; a
   * completion beside an abort would assemble parts being deleted.
   */
  claim(uploadId: string): (() => void) | null;
}

const UPLOAD_ID = /^[0-9a-f]{32}$/;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function partName(partNumber: number): string {
  return `part-${String(partNumber).padStart(5, '0')}`;
}

export async function openMultipartFiles(uploadsDir: string, tmpDir: string): Promise<MultipartFiles> {
  await mkdir(uploadsDir, { recursive: true, mode: STORE_DIR_MODE });
  const lock = createKeyLock();
  // Upload ids arrive from clients: anything not shaped like ours is simply unknown, which
  // also keeps them from naming paths outside the uploads directory.
  const uploadDir = (uploadId: string): string | null => (UPLOAD_ID.test(uploadId) ? join(uploadsDir, uploadId) : null);

  const writeJsonAtomic = async (path: string, value: unknown): Promise<void> => {
    const temp = join(tmpDir, randomUUID());
    try {
      await writeFile(temp, JSON.stringify(value), { mode: STORE_FILE_MODE });
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  };

  const get = async (uploadId: string): Promise<UploadRecord | null> => {
    const dir = uploadDir(uploadId);
    return dir ? readJson<UploadRecord>(join(dir, 'upload.json')) : null;
  };

  const create = async (upload: NewUpload): Promise<UploadRecord> => {
    const record: UploadRecord = { ...upload, uploadId: randomBytes(16).toString('hex'), initiated: new Date().toISOString() };
    const dir = join(uploadsDir, record.uploadId);
    await mkdir(dir, { mode: STORE_DIR_MODE });
    try {
      await writeJsonAtomic(join(dir, 'upload.json'), record);
    } catch (error) {
      // No room for its record (a full disk, issue 32): no upload, and no empty directory.
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    return record;
  };

  const putPart = async (uploadId: string, partNumber: number, tempPath: string, part: NewPart): Promise<PartRecord> => {
    const dir = uploadDir(uploadId);
    return lock.run(`${uploadId}/${partNumber}`, async () => {
      if (!dir || !(await get(uploadId))) {
        await rm(tempPath, { force: true });
        throw new S3Error('NoSuchUpload', undefined, { UploadId: uploadId });
      }
      const name = partName(partNumber);
      const record: PartRecord = { ...part, partNumber, dataFile: `${name}~d.${randomBytes(8).toString('hex')}` };
      try {
        await rename(tempPath, join(dir, record.dataFile));
      } catch (error) {
        await rm(tempPath, { force: true });
        throw error;
      }
      const previous = await readJson<PartRecord>(join(dir, `${name}.json`));
      try {
        await writeJsonAtomic(join(dir, `${name}.json`), record);
      } catch (error) {
        // No room for the part's record (a full disk, issue 32): the part number keeps what it had.
        await rm(join(dir, record.dataFile), { force: true });
        throw error;
      }
      if (previous && previous.dataFile !== record.dataFile) await rm(join(dir, previous.dataFile), { force: true });
      return record;
    });
  };

  const listParts = async (uploadId: string): Promise<PartRecord[]> => {
    const dir = uploadDir(uploadId);
    if (!dir) return [];
    const names = await readdir(dir).catch((error: unknown) => {
      if (isMissing(error)) return [] as string[];
      throw error;
    });
    const parts: PartRecord[] = [];
    for (const name of names.filter((entry) => /^part-\d{5}\.json$/.test(entry))) {
      const part = await readJson<PartRecord>(join(dir, name));
      if (part) parts.push(part);
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  };

  const listUploads = async (): Promise<UploadRecord[]> => {
    const uploads: UploadRecord[] = [];
    for (const name of await readdir(uploadsDir)) {
      const upload = await get(name);
      if (upload) uploads.push(upload);
    }
    return uploads;
  };

  const assemble = async (uploadId: string, parts: PartRecord[], tempPath: string): Promise<void> => {
    const dir = uploadDir(uploadId);
    if (!dir) throw new S3Error('NoSuchUpload', undefined, { UploadId: uploadId });
    async function* concatenated(): AsyncGenerator<Buffer> {
      for (const part of parts) {
        for await (const chunk of createReadStream(join(dir ?? '', part.dataFile))) yield chunk as Buffer;
      }
    }
    try {
      await pipeline(concatenated, createWriteStream(tempPath, { flags: 'wx', mode: STORE_FILE_MODE }));
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
  };

  const linkParts = async (uploadId: string, parts: PartRecord[], tempDir: string): Promise<boolean> => {
    const dir = uploadDir(uploadId);
    if (!dir) throw new S3Error('NoSuchUpload', undefined, { UploadId: uploadId });
    await mkdir(tempDir, { mode: STORE_DIR_MODE });
    try {
      for (const [index, part] of parts.entries()) await link(join(dir, part.dataFile), join(tempDir, segmentFileName(index)));
      return true;
    } catch (error) {
      await rm(tempDir, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      // No hard links here (some network and FAT file systems): the caller copies instead.
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV' || code === 'EMLINK') return false;
      throw error;
    }
  };

  const remove = async (uploadId: string): Promise<boolean> => {
    const dir = uploadDir(uploadId);
    if (!dir || !(await get(uploadId))) return false;
    // The record goes first so the upload stops existing at once, even if removing its parts takes a while.
    await rm(join(dir, 'upload.json'), { force: true });
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    return true;
  };

  // In memory: one process owns a data directory, so the process is where completions meet.
  const claimed = new Set<string>();
  const claim = (uploadId: string): (() => void) | null => {
    if (claimed.has(uploadId)) return null;
    claimed.add(uploadId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      claimed.delete(uploadId);
    };
  };

  return { create, get, putPart, listParts, listUploads, assemble, linkParts, remove, claim };
}
