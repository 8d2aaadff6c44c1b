import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedS3Plugin } from '../../server/storage/embedded-s3/index.ts';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../support/small-disk.ts';

const BUCKET = 'disk-full';
const KEYS = { accessKeyId: 'AKIADISKFULLTEST', secretAccessKey: 'disk-full-secret-key' };
const MiB = 1024 * 1024;

/** Every file under `dir` (relative paths), directories left out. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(at, entry.name));
      else out.push(relative(dir, join(at, entry.name)));
    }
  };
  await walk(dir);
  return out.sort();
}

/** The SDK's error of a refused call (no retries: the client has maxAttempts 1). */
async function refusal(call: Promise<unknown>): Promise<S3ServiceException> {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(S3ServiceException);
  return error as S3ServiceException;
}

/**
 * Issue 32: the embedded store on a disk that fills up. A real 4 MiB tmpfs (the kernel's own
 * ENOSPC; tests/support/small-disk.ts): every write S3 clients make (PutObject, UploadPart,
 * CreateMultipartUpload, CompleteMultipartUpload) is answered 507 with an S3 XML error that says
 * the disk is full, and leaves nothing half-written (no temp file, no part, no object, no sidecar).
 */
describe.skipIf(smallDiskUnavailable)('the embedded store on a full disk', () => {
  let disk: SmallDisk;
  let app: FastifyInstance;
  let client: S3Client;
  const store = () => join(disk.dir, 's3');
  /** What the store holds besides its (empty) temp directory. */
  const storeFiles = () => filesUnder(store());

  beforeAll(async () => {
    disk = mountSmallDisk('4m');
    app = Fastify();
    await app.register(embeddedS3Plugin, {
      prefix: '/s3',
      root: store(),
      bucket: BUCKET,
      region: 'us-east-1',
      credentials: { lookup: async (id) => (id === KEYS.accessKeyId ? { secretAccessKey: KEYS.secretAccessKey } : null) },
    });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    client = new S3Client({
      endpoint: `${address}/s3`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: KEYS,
      maxAttempts: 1,
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
  });
  afterAll(async () => {
    client?.destroy();
    await app?.close();
    disk?.unmount();
  });

  it('PutObject larger than the free space: 507 with an S3 XML error saying the disk is full; the key absent, no temp file left', async () => {
    const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: BUCKET, Key: 'clips/too-big.mp4' }), { expiresIn: 60 });
    // A plain HTTP client, as a browser's upload is: it reads the answer, the connection is not cut.
    const answer = await fetch(url, { method: 'PUT', body: Buffer.alloc(6 * MiB, 1) });
    expect(answer.status).toBe(507);
    expect(answer.headers.get('content-type')).toContain('application/xml');
    const xml = await answer.text();
    expect(xml).toContain('<Code>InsufficientStorage</Code>');
    expect(xml).toMatch(/<Message>The disk of the object store is full: nothing was stored\..*DATA_DIR\/s3/);
    expect(xml).toContain('<Resource>/disk-full/clips/too-big.mp4</Resource>');
    expect(await storeFiles()).toEqual([]);
    expect((await refusal(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'clips/too-big.mp4' })))).$metadata.httpStatusCode).toBe(404);
    // The space the refused write took is free again: an object that fits is stored.
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'clips/fits.mp4', Body: Buffer.alloc(3 * MiB, 2) }));
    expect((await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'clips/fits.mp4' }))).ContentLength).toBe(3 * MiB);
    // Owner-only files (issue 32): the store's directories 0700, its files 0600.
    expect((await stat(store())).mode & 0o777).toBe(0o700);
    for (const file of await storeFiles()) expect((await stat(join(store(), file))).mode & 0o777, file).toBe(0o600);
  });

  it('UploadPart, CreateMultipartUpload and CompleteMultipartUpload: 507 InsufficientStorage through the SDK, nothing half-written; the upload goes on once there is room', async () => {
    const key = 'clips/in-parts.mp4';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
    const kept = await storeFiles();

    // A part that does not fit: refused, no part recorded, no file left.
    const tooBig = await refusal(client.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 1, Body: Buffer.alloc(2 * MiB, 3) })));
    expect(tooBig.name).toBe('InsufficientStorage');
    expect(tooBig.$metadata.httpStatusCode).toBe(507);
    expect(tooBig.message).toContain('The disk of the object store is full');
    expect((await client.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId }))).Parts ?? []).toEqual([]);
    expect(await storeFiles()).toEqual(kept);

    // One that fits is stored as its part 1.
    const { ETag } = await client.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 1, Body: Buffer.alloc(256 * 1024, 4) }));

    // Then the disk is full to the last byte: a new upload cannot record itself, and completing
    // (whose object's bytes are the part's, linked) has no room for the object's metadata.
    const free = disk.fill();
    const beforeFull = await storeFiles();
    try {
      expect((await refusal(client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'clips/another.mp4' })))).$metadata.httpStatusCode).toBe(507);
      const complete = await refusal(
        client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } })),
      );
      // Answered plainly (not an error inside a 200): completing by hard links takes milliseconds.
      expect(complete.$metadata.httpStatusCode).toBe(507);
      expect(complete.name).toBe('InsufficientStorage');
      expect(await storeFiles()).toEqual(beforeFull);
      expect((await refusal(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })))).$metadata.httpStatusCode).toBe(404);
      const uploads = (await client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }))).Uploads ?? [];
      expect(uploads.map((upload) => upload.Key)).toEqual([key]);
    } finally {
      free();
    }
    // With room again the same upload completes: a refused completion kept its parts.
    await client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } }));
    expect((await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).ContentLength).toBe(256 * 1024);
    expect((await client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }))).Uploads ?? []).toEqual([]);
  });
});
