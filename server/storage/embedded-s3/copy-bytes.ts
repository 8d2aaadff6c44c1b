import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { STORE_FILE_MODE, type ObjectBody } from './object-files.ts';

/**
 * Copies bytes [start, end] of an open object into a new file, computing the md5 the copy's
 * ETag needs (a copy is a single-part object even when its source was multipart).
 */
export async function copyBytesToFile(source: ObjectBody, start: number, end: number, path: string): Promise<{ size: number; md5: Buffer }> {
  const md5 = createHash('md5');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    // An empty source has no byte range to read (end < start).
    const reader = end >= start ? source.createReadStream({ start, end, autoClose: false }) : Readable.from([]);
    await pipeline(reader, meter, createWriteStream(path, { flags: 'wx', mode: STORE_FILE_MODE }));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { size, md5: md5.digest() };
}
