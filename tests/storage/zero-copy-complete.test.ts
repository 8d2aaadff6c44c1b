import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeClient, startS3Target, type S3TestTarget } from './s3-harness.ts';

const MiB = 1024 * 1024;

/** Every file under `dir`, recursively, with its inode. */
async function filesUnder(dir: string): Promise<{ path: string; ino: number }[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => ({ path: join(entry.parentPath, entry.name), ino: (await stat(join(entry.parentPath, entry.name))).ino })),
  );
}

/**
 * Issue 14, zero-copy completion: CompleteMultipartUpload in the embedded store makes the object
 * out of the parts' own files (hard links, read in order as one stream) instead of copying every
 * byte into a new file. What S3 clients see must not change: the bytes, ranges across part
 * boundaries, copies, listings, overwrites and deletes while someone is still reading.
 */
describe.runIf(!process.env.S3_CONFORMANCE_ENDPOINT)('zero-copy multipart completion in the embedded store', () => {
  let target: S3TestTarget;
  let client: S3Client;
  const k = (name: string) => `${target.runPrefix}zero-copy/${name}`;

  beforeAll(async () => {
    target = await startS3Target();
    client = makeClient(target);
  });
  afterAll(async () => {
    client?.destroy();
    await target?.close();
  });

  /** Uploads `parts` as a multipart upload; answers the upload id and the whole bytes. */
  async function multipart(key: string, parts: Buffer[]) {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: key, ContentType: 'video/mp4' }));
    const done = [];
    for (const [index, body] of parts.entries()) {
      const { ETag } = await client.send(new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId, PartNumber: index + 1, Body: body }));
      done.push({ PartNumber: index + 1, ETag });
    }
    return { uploadId: UploadId!, completed: done, bytes: Buffer.concat(parts) };
  }
  const complete = (key: string, uploadId: string, parts: { PartNumber: number; ETag?: string }[], ifNoneMatch?: string) =>
    client.send(
      new CompleteMultipartUploadCommand({
        Bucket: target.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
        ...(ifNoneMatch && { IfNoneMatch: ifNoneMatch }),
      }),
    );
  const read = async (key: string, range?: string) =>
    Buffer.from(
      await (await client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key, ...(range && { Range: range }) }))).Body!.transformToByteArray(),
    );

  it('makes the object of the parts’ own files (no byte copied) and reads it back whole and across every part boundary', async () => {
    const key = k('linked.mp4');
    const { uploadId, completed, bytes } = await multipart(key, [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(MiB + 7)]);
    const partFiles = (await filesUnder(join(target.root!))).filter((file) => file.path.includes(uploadId) && /part-\d{5}~d\./.test(file.path));
    expect(partFiles).toHaveLength(3);
    await complete(key, uploadId, completed);
    const segments = (await filesUnder(target.root!)).filter((file) => /~d\.[0-9a-f]+\/s\d{5}$/.test(file.path));
    // The same inodes: the object's bytes are the parts' files, linked, not written again.
    expect(segments.map((file) => file.ino).sort()).toEqual(partFiles.map((file) => file.ino).sort());

    expect((await read(key)).equals(bytes)).toBe(true);
    const ranges: [number, number][] = [
      [5 * MiB - 10, 5 * MiB + 9],
      [10 * MiB - 1, 10 * MiB],
      [0, 0],
      [bytes.length - 100, bytes.length - 1],
      [3, 11 * MiB],
    ];
    for (const [start, end] of ranges) {
      expect((await read(key, `bytes=${start}-${end}`)).equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    expect((await read(key, 'bytes=-5')).equals(bytes.subarray(bytes.length - 5))).toBe(true);
  });

  it('copies a linked object, and lists only its key', async () => {
    const key = k('listed/source.mp4');
    const { uploadId, completed, bytes } = await multipart(key, [randomBytes(5 * MiB), randomBytes(1000)]);
    await complete(key, uploadId, completed);
    await client.send(new CopyObjectCommand({ Bucket: target.bucket, Key: k('listed/copy.mp4'), CopySource: `${target.bucket}/${key}` }));
    expect((await read(k('listed/copy.mp4'))).equals(bytes)).toBe(true);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('listed/') }));
    expect((listed.Contents ?? []).map((object) => [object.Key, object.Size])).toEqual([
      [k('listed/copy.mp4'), bytes.length],
      [k('listed/source.mp4'), bytes.length],
    ]);
    const folders = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k(''), Delimiter: '/' }));
    expect(folders.CommonPrefixes?.map((p) => p.Prefix)).toContain(k('listed/'));
    expect(JSON.stringify(folders)).not.toMatch(/~d\./);
  });

  it('a reader streaming the object keeps its bytes through an overwrite and a delete; they are removed after it', async () => {
    const key = k('busy.mp4');
    const { uploadId, completed, bytes } = await multipart(key, [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(5 * MiB)]);
    await complete(key, uploadId, completed);
    const dataDirs = async () => (await readdir(target.root!, { recursive: true })).filter((path) => /busy\.mp4~d\.[0-9a-f]+$/.test(path));
    expect(await dataDirs()).toHaveLength(1);

    const answer = await client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
    const reader = (answer.Body as NodeJS.ReadableStream)[Symbol.asyncIterator]();
    const chunks: Buffer[] = [Buffer.from((await reader.next()).value as Uint8Array)];
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'replaced' }));
    expect((await read(key)).toString()).toBe('replaced');
    await client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: key }));
    for (let next = await reader.next(); !next.done; next = await reader.next()) chunks.push(Buffer.from(next.value as Uint8Array));
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    await vi.waitFor(async () => expect(await dataDirs()).toEqual([]));
  });

  it('a completion refused by its condition leaves the upload whole, to complete later', async () => {
    const key = k('conditional.mp4');
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'already here' }));
    const { uploadId, completed, bytes } = await multipart(key, [randomBytes(5 * MiB), randomBytes(10)]);
    await expect(complete(key, uploadId, completed, '*')).rejects.toMatchObject({ $metadata: { httpStatusCode: 412 } });
    expect((await read(key)).toString()).toBe('already here');
    await complete(key, uploadId, completed);
    expect((await read(key)).equals(bytes)).toBe(true);
  });
});
