import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentDisposition, createObjectStore } from '../../server/storage/object-store.ts';
import type { ObjectStore } from '../../server/storage/object-store.ts';
import { makeClient, sendRaw, startS3Target } from './s3-harness.ts';
import type { S3TestTarget } from './s3-harness.ts';

const MiB = 1024 * 1024;

let target: S3TestTarget;
let store: ObjectStore;

beforeAll(async () => {
  target = await startS3Target();
  store = createObjectStore({
    endpoint: target.endpoint,
    region: target.region,
    bucket: target.bucket,
    accessKeyId: target.credentials.accessKeyId,
    secretAccessKey: target.credentials.secretAccessKey,
    forcePathStyle: true,
  });
  await store.ensureBucket();
});

afterAll(async () => {
  store?.destroy();
  await target?.close();
});

function k(name: string): string {
  return `${target.runPrefix}store/${name}`;
}

function md5Hex(data: Buffer | string): string {
  return createHash('md5').update(data).digest('hex');
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('object-store', () => {
  it('ensureBucket is idempotent', async () => {
    await store.ensureBucket();
  });

  it('puts, heads and streams an object; head of a missing key is null', async () => {
    const { etag } = await store.putObject(k('a.txt'), 'hello store', 'text/plain');
    expect(etag).toBe(md5Hex('hello store'));
    expect(await store.headObject(k('a.txt'))).toMatchObject({ size: 11, etag, contentType: 'text/plain' });
    expect(await store.headObject(k('missing'))).toBeNull();
    const whole = await store.getObjectStream(k('a.txt'));
    expect(whole?.contentLength).toBe(11);
    expect(await text(whole?.body as Readable)).toBe('hello store');
    expect(await store.getObjectStream(k('missing'))).toBeNull();
  });

  it('reads byte ranges given as a range or a raw header', async () => {
    await store.putObject(k('range.txt'), '0123456789');
    const first = await store.getObjectStream(k('range.txt'), { start: 0, end: 0 });
    expect(first?.contentRange).toBe('bytes 0-0/10');
    expect(await text(first?.body as Readable)).toBe('0');
    const tail = await store.getObjectStream(k('range.txt'), 'bytes=-4');
    expect(await text(tail?.body as Readable)).toBe('6789');
    const open = await store.getObjectStream(k('range.txt'), { start: 7 });
    expect(await text(open?.body as Readable)).toBe('789');
    await expect(store.getObjectStream(k('range.txt'), { start: 10 })).rejects.toMatchObject({ name: 'InvalidRange' });
  });

  it('puts a stream of unknown length, multipart when it is large', async () => {
    const data = randomBytes(9 * MiB);
    const pieces = Array.from({ length: 9 }, (_, index) => data.subarray(index * MiB, (index + 1) * MiB));
    const { etag } = await store.putObject(k('stream.bin'), Readable.from(pieces), 'video/mp4');
    expect(etag).toMatch(/-2$/);
    const head = await store.headObject(k('stream.bin'));
    expect(head).toMatchObject({ size: data.length, contentType: 'video/mp4' });
    const back = await store.getObjectStream(k('stream.bin'));
    expect((await readAll(back?.body as Readable)).equals(data)).toBe(true);
  }, 20_000);

  it('presigns a GET that downloads under the given name', async () => {
    await store.putObject(k('presigned.mp4'), 'video bytes', 'video/mp4');
    const url = await store.presignGet(k('presigned.mp4'), 120, 'Schnitt «final» 1.mp4');
    const answer = await sendRaw(url);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('video bytes');
    expect(answer.headers['content-disposition']).toBe(attachmentDisposition('Schnitt «final» 1.mp4'));
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="Schnitt _final_ 1.mp4"; filename*=UTF-8''Schnitt%20%C2%ABfinal%C2%BB%201.mp4`);
  });

  it('lists parts and uploads in progress, and aborts idempotently', async () => {
    const client = makeClient(target);
    try {
      const key = k('uploads/in progress.bin');
      const { UploadId = '' } = await client.send(new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: key }));
      const { ETag } = await client.send(new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId, PartNumber: 1, Body: 'part one' }));
      expect(await store.listParts(key, UploadId)).toEqual([expect.objectContaining({ partNumber: 1, etag: ETag?.replace(/"/g, ''), size: 8 })]);
      const uploads = await store.listMultipartUploads(k('uploads/'));
      expect(uploads).toEqual([expect.objectContaining({ key, uploadId: UploadId })]);
      expect(uploads[0]?.initiated).toBeInstanceOf(Date);
      await store.abortMultipartUpload(key, UploadId);
      await store.abortMultipartUpload(key, UploadId);
      expect(await store.listParts(key, UploadId)).toBeNull();
      expect(await store.listMultipartUploads(k('uploads/'))).toEqual([]);
    } finally {
      client.destroy();
    }
  });

  it('deletes one object or many', async () => {
    await store.putObject(k('del/1'), '1');
    await store.putObject(k('del/2'), '2');
    await store.putObject(k('del/3'), '3');
    await store.deleteObject(k('del/1'));
    await store.deleteObject(k('del/1'));
    expect(await store.headObject(k('del/1'))).toBeNull();
    const result = await store.deleteObjects([k('del/2'), k('del/3'), k('del/none')]);
    expect(result.errors).toEqual([]);
    expect(result.deleted.sort()).toEqual([k('del/2'), k('del/3'), k('del/none')].sort());
    expect(await store.headObject(k('del/3'))).toBeNull();
  });
});
