import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketLocationCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import type { GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsChunked, CORS_PAGE_ORIGIN, errorCode, makeClient, sendRaw, sendSigned, startS3Target } from './s3-harness.ts';
import type { ChecksumMode, S3TestTarget } from './s3-harness.ts';

const MiB = 1024 * 1024;

let target: S3TestTarget;
let client: S3Client;
let sdkDefault: S3Client;
const clients: S3Client[] = [];

beforeAll(async () => {
  target = await startS3Target();
  client = track(makeClient(target, 'WHEN_REQUIRED'));
  sdkDefault = track(makeClient(target, 'default'));
});

afterAll(async () => {
  for (const each of clients) each.destroy();
  await target?.close();
});

function track(each: S3Client): S3Client {
  clients.push(each);
  return each;
}

/** A key under this run's prefix. */
function k(name: string): string {
  return `${target.runPrefix}${name}`;
}

function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function md5(data: Buffer | string): Buffer {
  return createHash('md5').update(data).digest();
}

function crc32Base64(data: Buffer): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(data) >>> 0);
  return bytes.toString('base64');
}

async function bodyBytes(output: GetObjectCommandOutput): Promise<Buffer> {
  return Buffer.from(await (output.Body as NonNullable<GetObjectCommandOutput['Body']>).transformToByteArray());
}

async function getBytes(key: string, each: S3Client = client): Promise<Buffer> {
  return bodyBytes(await each.send(new GetObjectCommand({ Bucket: target.bucket, Key: key })));
}

/** Asserts an SDK call fails with this S3 error code (and HTTP status when given). */
async function expectS3Error(promise: Promise<unknown>, code: string, status?: number): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught as { name?: string; $metadata?: { httpStatusCode?: number } },
  );
  expect(error, `expected ${code}`).toBeDefined();
  expect(error?.name).toBe(code);
  if (status !== undefined) expect(error?.$metadata?.httpStatusCode).toBe(status);
}

/** Captures the final (signed) request headers and the raw response headers of every call. */
function capture(each: S3Client): { requests: Array<Record<string, string>>; responses: Array<Record<string, string>> } {
  const seen = { requests: [] as Array<Record<string, string>>, responses: [] as Array<Record<string, string>> };
  each.middlewareStack.add(
    (next) => async (args) => {
      seen.requests.push({ ...(args.request as { headers: Record<string, string> }).headers });
      const result = await next(args);
      seen.responses.push({ ...(result.response as { headers: Record<string, string> }).headers });
      return result;
    },
    { step: 'deserialize', name: 'conformanceCapture' },
  );
  return seen;
}

describe('objects: PutObject, HeadObject, GetObject', () => {
  it.each<ChecksumMode>(['WHEN_REQUIRED', 'default'])('round-trips bytes, ETag, type and metadata (%s checksums)', async (mode) => {
    const each = mode === 'default' ? sdkDefault : client;
    const key = k(`roundtrip-${mode}.bin`);
    const data = randomBytes(70_000);
    const put = await each.send(
      new PutObjectCommand({
        Bucket: target.bucket,
        Key: key,
        Body: data,
        ContentType: 'video/mp4',
        Metadata: { origin: 'conformance', 'file-name': 'clip 1.mp4' },
        CacheControl: 'max-age=60',
        ContentDisposition: 'inline',
      }),
    );
    expect(put.ETag).toBe(`"${md5(data).toString('hex')}"`);
    const head = await each.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }));
    expect(head.ContentLength).toBe(data.length);
    expect(head.ContentType).toBe('video/mp4');
    expect(head.ETag).toBe(put.ETag);
    expect(head.Metadata).toEqual({ origin: 'conformance', 'file-name': 'clip 1.mp4' });
    expect(head.CacheControl).toBe('max-age=60');
    expect(head.ContentDisposition).toBe('inline');
    expect(head.LastModified).toBeInstanceOf(Date);
    const got = await each.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
    expect(got.AcceptRanges).toBe('bytes');
    expect(sha256(await bodyBytes(got))).toBe(sha256(data));
  });

  it('stores an empty object', async () => {
    const key = k('empty.txt');
    const put = await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: '', ContentLength: 0 }));
    expect(put.ETag).toBe('"d41d8cd98f00b204e9800998ecf8427e"');
    expect((await getBytes(key)).length).toBe(0);
    expect((await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }))).ContentLength).toBe(0);
  });

  it('overwrites a key with the latest body', async () => {
    const key = k('overwrite.txt');
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'first version' }));
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'second' }));
    expect((await getBytes(key)).toString()).toBe('second');
  });

  it('honours conditional writes: If-None-Match * refuses to overwrite, If-Match needs the current ETag', async () => {
    const key = k('conditional-write.txt');
    const first = await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'first', IfNoneMatch: '*' }));
    await expectS3Error(client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'second', IfNoneMatch: '*' })), 'PreconditionFailed', 412);
    await expectS3Error(
      client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'second', IfMatch: '"0123456789abcdef0123456789abcdef"' })),
      'PreconditionFailed',
      412,
    );
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'third', IfMatch: first.ETag }));
    expect((await getBytes(key)).toString()).toBe('third');
  });

  it('handles keys with slashes, spaces, unicode and reserved characters', async () => {
    const names = [
      'dir/sub dir/file name.mp4',
      'ünïcødé/視頻/🎬 take 1.mov',
      "reserved/a+b=c&d?e#f%g~h!i'j(k)l*m,n;o:p@q$r.txt",
      'dots/./and/../x.txt',
      'double//slash.txt',
      'Case/UPPER.txt',
      'Case/upper.txt',
    ];
    for (const [index, name] of names.entries()) {
      await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: k(`keys/${name}`), Body: `body ${index}` }));
    }
    for (const [index, name] of names.entries()) {
      expect((await getBytes(k(`keys/${name}`))).toString()).toBe(`body ${index}`);
    }
    const listed = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('keys/') }));
    const keys = (listed.Contents ?? []).map((object) => object.Key);
    expect(keys).toEqual(names.map((name) => k(`keys/${name}`)).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });

  it('answers NotFound to HEAD and NoSuchKey to GET of a missing key', async () => {
    await expectS3Error(client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: k('missing') })), 'NotFound', 404);
    await expectS3Error(client.send(new GetObjectCommand({ Bucket: target.bucket, Key: k('missing') })), 'NoSuchKey', 404);
  });

  it('honours If-None-Match (304) and If-Match (412)', async () => {
    const key = k('conditional.txt');
    const { ETag } = await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'conditional' }));
    // A 304 has no body, so SDKs cannot name an error code; only the status tells.
    const notModified = await client
      .send(new GetObjectCommand({ Bucket: target.bucket, Key: key, IfNoneMatch: ETag }))
      .catch((error: { $metadata?: { httpStatusCode?: number } }) => error);
    expect(notModified.$metadata?.httpStatusCode).toBe(304);
    await expectS3Error(
      client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key, IfMatch: '"0123456789abcdef0123456789abcdef"' })),
      'PreconditionFailed',
      412,
    );
    const matched = await client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key, IfMatch: ETag }));
    expect((await bodyBytes(matched)).toString()).toBe('conditional');
  });
});

describe('request bodies: aws-chunked, checksums and digests', () => {
  it('decodes the SDK default streaming upload (aws-chunked + CRC32 trailer) to the raw bytes', async () => {
    const each = track(makeClient(target, 'default'));
    const seen = capture(each);
    const data = randomBytes(300_000);
    const key = k('chunked/sdk-default.bin');
    const pieces = [data.subarray(0, 100_000), data.subarray(100_000, 250_001), data.subarray(250_001)];
    await each.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: Readable.from(pieces), ContentLength: data.length }));
    const sent = seen.requests[0] ?? {};
    expect(sent['content-encoding']).toBe('aws-chunked');
    expect(sent['x-amz-content-sha256']).toBe('STREAMING-UNSIGNED-PAYLOAD-TRAILER');
    expect(sent['x-amz-decoded-content-length']).toBe(String(data.length));
    const got = await client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
    expect(got.ContentLength).toBe(data.length);
    expect(got.ContentEncoding).toBeUndefined();
    expect(sha256(await bodyBytes(got))).toBe(sha256(data));
    expect((await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }))).ETag).toBe(`"${md5(data).toString('hex')}"`);
  });

  it('stores a streaming upload sent with WHEN_REQUIRED checksums byte-exact', async () => {
    const data = randomBytes(200_000);
    const key = k('chunked/when-required.bin');
    await client.send(
      new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: Readable.from([data.subarray(0, 5), data.subarray(5)]), ContentLength: data.length }),
    );
    expect(sha256(await getBytes(key))).toBe(sha256(data));
  });

  it('returns the stored CRC32 with checksum mode, which the SDK default client validates', async () => {
    const data = randomBytes(10_000);
    const key = k('chunked/checksum-mode.bin');
    await sdkDefault.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: data }));
    const got = await sdkDefault.send(new GetObjectCommand({ Bucket: target.bucket, Key: key, ChecksumMode: 'ENABLED' }));
    expect(got.ChecksumCRC32).toBe(crc32Base64(data));
    expect(sha256(await bodyBytes(got))).toBe(sha256(data));
  });

  it('accepts hand-framed aws-chunked bodies and rejects a wrong trailer checksum or a short body', async () => {
    const data = Buffer.from('hello aws-chunked world, with more than one chunk');
    const chunks = [data.subarray(0, 7), data.subarray(7, 30), data.subarray(30)];
    const headers = (decodedLength: number): Record<string, string> => ({
      'content-encoding': 'aws-chunked',
      'x-amz-decoded-content-length': String(decodedLength),
      'x-amz-trailer': 'x-amz-checksum-crc32',
      'content-type': 'text/plain',
    });
    const ok = await sendSigned(target, {
      method: 'PUT',
      key: k('chunked/hand.txt'),
      contentSha256: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      headers: headers(data.length),
      body: awsChunked(chunks, `x-amz-checksum-crc32:${crc32Base64(data)}`),
    });
    expect(ok.status, ok.body.toString()).toBe(200);
    expect((await getBytes(k('chunked/hand.txt'))).equals(data)).toBe(true);

    const badChecksum = await sendSigned(target, {
      method: 'PUT',
      key: k('chunked/bad-checksum.txt'),
      contentSha256: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      headers: headers(data.length),
      body: awsChunked(chunks, `x-amz-checksum-crc32:${crc32Base64(Buffer.from('other'))}`),
    });
    expect(badChecksum.status).toBe(400);
    expect(errorCode(badChecksum.body)).toBe('BadDigest');

    const short = await sendSigned(target, {
      method: 'PUT',
      key: k('chunked/short.txt'),
      contentSha256: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      headers: headers(data.length + 10),
      body: awsChunked(chunks, `x-amz-checksum-crc32:${crc32Base64(data)}`),
    });
    expect(short.status).toBe(400);
    expect(errorCode(short.body)).toBe('IncompleteBody');
    await expectS3Error(client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: k('chunked/bad-checksum.txt') })), 'NotFound');
    await expectS3Error(client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: k('chunked/short.txt') })), 'NotFound');
  });

  it('verifies a hex x-amz-content-sha256 against the body', async () => {
    const signedFor = Buffer.from('the body that was signed');
    const mismatch = await sendSigned(target, {
      method: 'PUT',
      key: k('sha/mismatch.txt'),
      contentSha256: sha256(signedFor),
      body: Buffer.from('a different body'),
    });
    expect(mismatch.status).toBe(400);
    expect(errorCode(mismatch.body)).toBe('XAmzContentSHA256Mismatch');
    const match = await sendSigned(target, { method: 'PUT', key: k('sha/match.txt'), contentSha256: sha256(signedFor), body: signedFor });
    expect(match.status).toBe(200);
    expect((await getBytes(k('sha/match.txt'))).equals(signedFor)).toBe(true);
  });

  it('rejects a wrong Content-MD5 (BadDigest) and a wrong x-amz-checksum-crc32', async () => {
    await expectS3Error(
      client.send(
        new PutObjectCommand({
          Bucket: target.bucket,
          Key: k('digest/md5.txt'),
          Body: 'payload',
          ContentMD5: md5('something else').toString('base64'),
        }),
      ),
      'BadDigest',
      400,
    );
    await expectS3Error(
      client.send(
        new PutObjectCommand({
          Bucket: target.bucket,
          Key: k('digest/crc.txt'),
          Body: 'payload',
          ChecksumCRC32: crc32Base64(Buffer.from('something else')),
        }),
      ),
      'BadDigest',
      400,
    );
    const good = await client.send(
      new PutObjectCommand({ Bucket: target.bucket, Key: k('digest/good.txt'), Body: 'payload', ContentMD5: md5('payload').toString('base64') }),
    );
    expect(good.ETag).toBe(`"${md5('payload').toString('hex')}"`);
  });
});

describe('GetObject ranges', () => {
  const data = Buffer.from('0123456789abcdefghij');
  const rangeKey = (): string => k('range/twenty.txt');
  beforeAll(async () => {
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: rangeKey(), Body: data }));
  });

  it.each([
    ['bytes=0-0', '0', 'bytes 0-0/20'],
    ['bytes=5-9', '56789', 'bytes 5-9/20'],
    ['bytes=-3', 'hij', 'bytes 17-19/20'],
    ['bytes=-50', data.toString(), 'bytes 0-19/20'],
    ['bytes=15-', 'fghij', 'bytes 15-19/20'],
    ['bytes=18-100', 'ij', 'bytes 18-19/20'],
    ['bytes=19-19', 'j', 'bytes 19-19/20'],
  ])('%s → 206 %s', async (range, expected, contentRange) => {
    const seen = capture(track(makeClient(target)));
    const each = clients.at(-1) as S3Client;
    const got = await each.send(new GetObjectCommand({ Bucket: target.bucket, Key: rangeKey(), Range: range }));
    expect(got.$metadata.httpStatusCode).toBe(206);
    expect(got.ContentRange).toBe(contentRange);
    expect(got.ContentLength).toBe(expected.length);
    expect((await bodyBytes(got)).toString()).toBe(expected);
    expect(seen.responses[0]?.['content-length']).toBe(String(expected.length));
  });

  it.each(['bytes=20-', 'bytes=20-25', 'bytes=-0', 'bytes=100-200'])('%s → 416 InvalidRange', async (range) => {
    await expectS3Error(client.send(new GetObjectCommand({ Bucket: target.bucket, Key: rangeKey(), Range: range })), 'InvalidRange', 416);
  });

  it('ignores a range header that is not a valid single range (200, whole body)', async () => {
    for (const range of ['bytes=5-2', 'items=0-1', 'bytes=abc']) {
      const got = await client.send(new GetObjectCommand({ Bucket: target.bucket, Key: rangeKey(), Range: range }));
      expect(got.$metadata.httpStatusCode).toBe(200);
      expect((await bodyBytes(got)).toString()).toBe(data.toString());
    }
  });

  it('answers 416 to any range of an empty object', async () => {
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: k('range/empty'), Body: '', ContentLength: 0 }));
    await expectS3Error(client.send(new GetObjectCommand({ Bucket: target.bucket, Key: k('range/empty'), Range: 'bytes=0-0' })), 'InvalidRange', 416);
  });

  it('sends Content-Range: bytes */size with the 416', async () => {
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: target.bucket, Key: rangeKey() }), { expiresIn: 60 });
    const answer = await sendRaw(url, { headers: { range: 'bytes=30-' } });
    expect(answer.status).toBe(416);
    expect(errorCode(answer.body)).toBe('InvalidRange');
    expect(answer.headers['content-range']).toBe('bytes */20');
  });
});

describe('delete and copy', () => {
  it('DeleteObject removes a key and succeeds for a missing one', async () => {
    const key = k('delete/one.txt');
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'x' }));
    const deleted = await client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: key }));
    expect(deleted.$metadata.httpStatusCode).toBe(204);
    await expectS3Error(client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key })), 'NotFound');
    expect((await client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: key }))).$metadata.httpStatusCode).toBe(204);
  });

  it.each<ChecksumMode>(['WHEN_REQUIRED', 'default'])('DeleteObjects deletes existing and missing keys (%s checksums)', async (mode) => {
    const each = mode === 'default' ? sdkDefault : client;
    const keys = [k(`delete/${mode}/a.txt`), k(`delete/${mode}/b c.txt`), k(`delete/${mode}/ü.txt`)];
    for (const key of keys) await each.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: key }));
    const result = await each.send(
      new DeleteObjectsCommand({
        Bucket: target.bucket,
        Delete: { Objects: [...keys, k(`delete/${mode}/never-existed`)].map((Key) => ({ Key })) },
      }),
    );
    expect((result.Deleted ?? []).map((entry) => entry.Key).sort()).toEqual([...keys, k(`delete/${mode}/never-existed`)].sort());
    expect(result.Errors ?? []).toEqual([]);
    for (const key of keys) await expectS3Error(each.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key })), 'NotFound');
    const quiet = await each.send(new DeleteObjectsCommand({ Bucket: target.bucket, Delete: { Objects: [{ Key: keys[0] }], Quiet: true } }));
    expect(quiet.Deleted ?? []).toEqual([]);
  });

  it('CopyObject copies bytes and metadata, or replaces the metadata', async () => {
    const source = k('copy/source file.mp4');
    const data = randomBytes(50_000);
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: source, Body: data, ContentType: 'video/mp4', Metadata: { a: '1' } }));
    const copied = await client.send(
      new CopyObjectCommand({ Bucket: target.bucket, Key: k('copy/ziel/kopie.mp4'), CopySource: `${target.bucket}/${encodeURIComponent(source)}` }),
    );
    expect(copied.CopyObjectResult?.ETag).toBe(`"${md5(data).toString('hex')}"`);
    expect(copied.CopyObjectResult?.LastModified).toBeInstanceOf(Date);
    const head = await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: k('copy/ziel/kopie.mp4') }));
    expect(head.ContentType).toBe('video/mp4');
    expect(head.Metadata).toEqual({ a: '1' });
    expect(sha256(await getBytes(k('copy/ziel/kopie.mp4')))).toBe(sha256(data));

    await client.send(
      new CopyObjectCommand({
        Bucket: target.bucket,
        Key: k('copy/replaced.bin'),
        CopySource: `${target.bucket}/${encodeURIComponent(source)}`,
        MetadataDirective: 'REPLACE',
        ContentType: 'application/x-test',
        Metadata: { b: '2' },
      }),
    );
    const replaced = await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: k('copy/replaced.bin') }));
    expect(replaced.ContentType).toBe('application/x-test');
    expect(replaced.Metadata).toEqual({ b: '2' });
  });

  it('UploadPartCopy copies byte ranges into a multipart upload (copies above 5 GiB)', async () => {
    const source = k('copy/big source.bin');
    const data = randomBytes(6 * MiB);
    const put = await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: source, Body: data, ContentType: 'video/quicktime' }));
    const key = k('copy/big copy.bin');
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: key, ContentType: 'video/quicktime' }));
    const ranges = [
      [0, 5 * MiB - 1],
      [5 * MiB, data.length - 1],
    ] as const;
    const parts = [];
    for (const [index, [start, end]] of ranges.entries()) {
      const part = await client.send(
        new UploadPartCopyCommand({
          Bucket: target.bucket,
          Key: key,
          UploadId,
          PartNumber: index + 1,
          CopySource: `${target.bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
          CopySourceRange: `bytes=${start}-${end}`,
          CopySourceIfMatch: put.ETag,
        }),
      );
      parts.push({ ETag: part.CopyPartResult?.ETag, PartNumber: index + 1 });
    }
    const done = await client.send(new CompleteMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }));
    expect(done.ETag).toMatch(/-2"$/);
    const head = await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }));
    expect(head).toMatchObject({ ContentLength: data.length, ContentType: 'video/quicktime' });
    expect(sha256(await getBytes(key))).toBe(sha256(data));
  });

  it('CopyObject fails for a missing source (NoSuchKey) and for a copy onto itself without REPLACE', async () => {
    await expectS3Error(
      client.send(new CopyObjectCommand({ Bucket: target.bucket, Key: k('copy/x'), CopySource: `${target.bucket}/${encodeURIComponent(k('copy/missing'))}` })),
      'NoSuchKey',
      404,
    );
    const key = k('copy/self.txt');
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'self' }));
    await expectS3Error(
      client.send(new CopyObjectCommand({ Bucket: target.bucket, Key: key, CopySource: `${target.bucket}/${encodeURIComponent(key)}` })),
      'InvalidRequest',
      400,
    );
  });
});

describe('ListObjectsV2', () => {
  const names = ['a/1.txt', 'a/2.txt', 'a/sub/3.txt', 'b.txt', 'c/4.txt', 'c/5.txt', 'd e/6.txt'];
  beforeAll(async () => {
    for (const name of names) await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: k(`list/${name}`), Body: name }));
  });

  it('lists a prefix in key order with sizes and ETags', async () => {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('list/') }));
    expect(listed.KeyCount).toBe(names.length);
    expect(listed.IsTruncated).toBe(false);
    expect((listed.Contents ?? []).map((object) => object.Key)).toEqual(names.map((name) => k(`list/${name}`)));
    const first = listed.Contents?.[0];
    expect(first?.Size).toBe('a/1.txt'.length);
    expect(first?.ETag).toBe(`"${md5('a/1.txt').toString('hex')}"`);
    expect(first?.LastModified).toBeInstanceOf(Date);
  });

  it('groups by delimiter into CommonPrefixes', async () => {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('list/'), Delimiter: '/' }));
    expect((listed.Contents ?? []).map((object) => object.Key)).toEqual([k('list/b.txt')]);
    expect((listed.CommonPrefixes ?? []).map((entry) => entry.Prefix)).toEqual([k('list/a/'), k('list/c/'), k('list/d e/')]);
    const partial = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('list/a'), Delimiter: '/' }));
    expect((partial.CommonPrefixes ?? []).map((entry) => entry.Prefix)).toEqual([k('list/a/')]);
    const inner = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('list/a/'), Delimiter: '/' }));
    expect((inner.Contents ?? []).map((object) => object.Key)).toEqual([k('list/a/1.txt'), k('list/a/2.txt')]);
    expect((inner.CommonPrefixes ?? []).map((entry) => entry.Prefix)).toEqual([k('list/a/sub/')]);
  });

  it('pages with MaxKeys and ContinuationToken, and starts after StartAfter', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('list/'), MaxKeys: 3, ContinuationToken: token }));
      pages += 1;
      expect(page.KeyCount).toBeLessThanOrEqual(3);
      seen.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      if (page.IsTruncated) expect(token).toBeTruthy();
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(names.map((name) => k(`list/${name}`)));
    const after = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('list/'), StartAfter: k('list/b.txt') }));
    expect((after.Contents ?? []).map((object) => object.Key)).toEqual([k('list/c/4.txt'), k('list/c/5.txt'), k('list/d e/6.txt')]);
  });

  it('also answers ListObjects (v1) with Marker paging', async () => {
    const first = await client.send(new ListObjectsCommand({ Bucket: target.bucket, Prefix: k('list/'), MaxKeys: 4 }));
    expect(first.IsTruncated).toBe(true);
    const firstKeys = (first.Contents ?? []).map((object) => object.Key ?? '');
    const rest = await client.send(new ListObjectsCommand({ Bucket: target.bucket, Prefix: k('list/'), Marker: firstKeys.at(-1) }));
    expect(rest.IsTruncated).toBe(false);
    expect([...firstKeys, ...(rest.Contents ?? []).map((object) => object.Key)]).toEqual(names.map((name) => k(`list/${name}`)));
  });
});

describe('multipart uploads', () => {
  const partSize = 5 * MiB;

  function expectedMultipartEtag(data: Buffer, size: number): string {
    const digests: Buffer[] = [];
    for (let offset = 0; offset < data.length; offset += size) digests.push(md5(data.subarray(offset, offset + size)));
    return `"${createHash('md5').update(Buffer.concat(digests)).digest('hex')}-${digests.length}"`;
  }

  it.each<ChecksumMode>(['default', 'WHEN_REQUIRED'])(
    'lib-storage Upload in 3 parts of 5 MiB (%s checksums)',
    async (mode) => {
      const each = mode === 'default' ? sdkDefault : client;
      const data = randomBytes(2 * partSize + 123_457);
      const key = k(`multipart/lib-storage-${mode}.bin`);
      const upload = new Upload({
        client: each,
        params: { Bucket: target.bucket, Key: key, Body: data, ContentType: 'video/quicktime' },
        partSize,
        queueSize: 3,
      });
      const result = await upload.done();
      expect(result.ETag).toBe(expectedMultipartEtag(data, partSize));
      const head = await each.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }));
      expect(head.ContentLength).toBe(data.length);
      expect(head.ContentType).toBe('video/quicktime');
      expect(head.ETag).toBe(expectedMultipartEtag(data, partSize));
      expect(sha256(await getBytes(key, each))).toBe(sha256(data));
      const tail = await each.send(new GetObjectCommand({ Bucket: target.bucket, Key: key, Range: `bytes=${partSize - 2}-${partSize + 1}` }));
      expect((await bodyBytes(tail)).equals(data.subarray(partSize - 2, partSize + 2))).toBe(true);
      if (mode === 'default') {
        // lib-storage asked for CRC32 at CreateMultipartUpload: the object carries S3's composite checksum.
        const partCrcs = [0, 1, 2].map((index) => Buffer.from(crc32Base64(data.subarray(index * partSize, (index + 1) * partSize)), 'base64'));
        const checked = await each.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key, ChecksumMode: 'ENABLED' }));
        expect(checked.ChecksumCRC32).toBe(`${crc32Base64(Buffer.concat(partCrcs))}-3`);
        expect(checked.ChecksumType).toBe('COMPOSITE');
      }
    },
    30_000,
  );

  it('a FULL_OBJECT CRC32 upload records the CRC-32 of every byte, and refuses a completion whose whole checksum differs (issue 35)', async () => {
    const key = k('multipart/full-object-crc32.bin');
    const data = randomBytes(2 * partSize + 777);
    const pieces = [data.subarray(0, partSize), data.subarray(partSize, 2 * partSize), data.subarray(2 * partSize)];
    const created = await client.send(
      new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: key, ChecksumAlgorithm: 'CRC32', ChecksumType: 'FULL_OBJECT' }),
    );
    const uploadId = created.UploadId ?? '';
    const parts: { PartNumber: number; ETag: string; ChecksumCRC32: string }[] = [];
    for (const [index, piece] of pieces.entries()) {
      const sent = await client.send(
        new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, PartNumber: index + 1, Body: piece, ChecksumCRC32: crc32Base64(piece) }),
      );
      parts.push({ PartNumber: index + 1, ETag: sent.ETag ?? '', ChecksumCRC32: crc32Base64(piece) });
    }
    const complete = (whole: string) =>
      client.send(
        new CompleteMultipartUploadCommand({
          Bucket: target.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
          ChecksumCRC32: whole,
          ChecksumType: 'FULL_OBJECT',
        }),
      );
    await expectS3Error(complete(crc32Base64(Buffer.from('not these bytes'))), 'BadDigest', 400);
    await expectS3Error(client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key })), 'NotFound');
    const done = await complete(crc32Base64(data));
    expect(done.ChecksumCRC32).toBe(crc32Base64(data));
    const head = await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key, ChecksumMode: 'ENABLED' }));
    expect(head.ChecksumCRC32).toBe(crc32Base64(data));
    expect(head.ChecksumType).toBe('FULL_OBJECT');
    expect(sha256(await getBytes(key))).toBe(sha256(data));
  }, 30_000);

  it('lib-storage Upload from a stream of unknown length', async () => {
    const data = randomBytes(partSize + 1000);
    const key = k('multipart/stream.bin');
    const pieces = Array.from({ length: 11 }, (_, index) => data.subarray(index * 500_000, (index + 1) * 500_000));
    const result = await new Upload({ client, params: { Bucket: target.bucket, Key: key, Body: Readable.from(pieces) }, partSize }).done();
    expect(result.ETag).toMatch(/-2"$/);
    expect(sha256(await getBytes(key))).toBe(sha256(data));
  }, 30_000);

  it('ListParts pages, ListMultipartUploads reports Initiated, Complete validates and Abort ends the upload', async () => {
    const key = k('multipart/manual.bin');
    const created = await client.send(new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: key, ContentType: 'application/x-manual' }));
    const uploadId = created.UploadId ?? '';
    expect(uploadId).not.toBe('');
    const part1 = randomBytes(partSize);
    const part2 = randomBytes(1000);
    const part3 = randomBytes(2000);
    const etag1 = (await client.send(new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, PartNumber: 1, Body: part1 }))).ETag ?? '';
    const etag2 = (await client.send(new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, PartNumber: 2, Body: part2 }))).ETag ?? '';
    const etag3 = (await client.send(new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, PartNumber: 3, Body: part3 }))).ETag ?? '';
    expect(etag1).toBe(`"${md5(part1).toString('hex')}"`);

    const page1 = await client.send(new ListPartsCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, MaxParts: 2 }));
    expect(page1.IsTruncated).toBe(true);
    expect((page1.Parts ?? []).map((part) => [part.PartNumber, part.ETag, part.Size])).toEqual([
      [1, etag1, partSize],
      [2, etag2, 1000],
    ]);
    expect(page1.NextPartNumberMarker).toBe('2');
    const page2 = await client.send(
      new ListPartsCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, MaxParts: 2, PartNumberMarker: page1.NextPartNumberMarker }),
    );
    expect(page2.IsTruncated).toBe(false);
    expect((page2.Parts ?? []).map((part) => part.PartNumber)).toEqual([3]);

    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: target.bucket, Prefix: k('multipart/') }));
    const listed = (uploads.Uploads ?? []).find((upload) => upload.UploadId === uploadId);
    expect(listed?.Key).toBe(key);
    expect(listed?.Initiated).toBeInstanceOf(Date);
    expect(Math.abs((listed?.Initiated?.getTime() ?? 0) - Date.now())).toBeLessThan(120_000);

    const complete = (parts: Array<{ PartNumber: number; ETag: string }>): Promise<unknown> =>
      client.send(new CompleteMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    await expectS3Error(
      complete([
        { PartNumber: 1, ETag: etag1 },
        { PartNumber: 2, ETag: '"00000000000000000000000000000000"' },
      ]),
      'InvalidPart',
      400,
    );
    await expectS3Error(
      complete([
        { PartNumber: 1, ETag: etag1 },
        { PartNumber: 4, ETag: etag2 },
      ]),
      'InvalidPart',
      400,
    );
    await expectS3Error(
      complete([
        { PartNumber: 2, ETag: etag2 },
        { PartNumber: 1, ETag: etag1 },
      ]),
      'InvalidPartOrder',
      400,
    );
    await expectS3Error(
      complete([
        { PartNumber: 1, ETag: etag1 },
        { PartNumber: 2, ETag: etag2 },
        { PartNumber: 3, ETag: etag3 },
      ]),
      'EntityTooSmall',
      400,
    );

    // Replacing part 2 with a full-size body makes the three parts completable; part 3 is left out.
    const part2b = randomBytes(partSize);
    const etag2b = (await client.send(new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, PartNumber: 2, Body: part2b }))).ETag ?? '';
    const done = await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: target.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: etag1.replace(/"/g, '') },
            { PartNumber: 2, ETag: etag2b },
          ],
        },
      }),
    );
    const both = Buffer.concat([part1, part2b]);
    expect(done.ETag).toBe(expectedMultipartEtag(both, partSize));
    expect(done.Key).toBe(key);
    expect(sha256(await getBytes(key))).toBe(sha256(both));
    expect((await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }))).ContentType).toBe('application/x-manual');
    await expectS3Error(client.send(new ListPartsCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId })), 'NoSuchUpload', 404);
  }, 30_000);

  it('AbortMultipartUpload removes the upload; parts and completes then answer NoSuchUpload', async () => {
    const key = k('multipart/aborted.bin');
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: key }));
    const { ETag } = await client.send(new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId, PartNumber: 1, Body: 'tiny' }));
    const aborted = await client.send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId }));
    expect(aborted.$metadata.httpStatusCode).toBe(204);
    await expectS3Error(client.send(new ListPartsCommand({ Bucket: target.bucket, Key: key, UploadId })), 'NoSuchUpload', 404);
    await expectS3Error(client.send(new UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId, PartNumber: 2, Body: 'more' })), 'NoSuchUpload', 404);
    await expectS3Error(
      client.send(
        new CompleteMultipartUploadCommand({
          Bucket: target.bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] },
        }),
      ),
      'NoSuchUpload',
      404,
    );
    await expectS3Error(client.send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId: 'no-such-upload-id' })), 'NoSuchUpload', 404);
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: target.bucket, Prefix: key }));
    expect((uploads.Uploads ?? []).some((upload) => upload.UploadId === UploadId)).toBe(false);
  });
});

describe('presigned GET', () => {
  const presignKey = (): string => k('presign/ü file (1).mp4');
  const data = Buffer.from('presigned body bytes');
  beforeAll(async () => {
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: presignKey(), Body: data, ContentType: 'video/mp4' }));
  });

  it('serves the object, honours response-content-disposition and Range', async () => {
    const url = await getSignedUrl(
      client,
      new GetObjectCommand({
        Bucket: target.bucket,
        Key: presignKey(),
        ResponseContentDisposition: 'attachment; filename="clip.mp4"',
      }),
      { expiresIn: 300 },
    );
    const answer = await sendRaw(url);
    expect(answer.status).toBe(200);
    expect(answer.body.equals(data)).toBe(true);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="clip.mp4"');
    expect(answer.headers['content-type']).toBe('video/mp4');
    const ranged = await sendRaw(url, { headers: { range: 'bytes=0-0' } });
    expect(ranged.status).toBe(206);
    expect(ranged.body.toString()).toBe('p');
    expect(ranged.headers['content-range']).toBe(`bytes 0-0/${data.length}`);
  });

  it('refuses an expired URL with AccessDenied', async () => {
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: target.bucket, Key: presignKey() }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 10 * 60_000),
    });
    const answer = await sendRaw(url);
    expect(answer.status).toBe(403);
    expect(errorCode(answer.body)).toBe('AccessDenied');
  });

  it('refuses a tampered signature, key or expiry with SignatureDoesNotMatch', async () => {
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: target.bucket, Key: presignKey() }), { expiresIn: 60 });
    const signature = new URL(url).searchParams.get('X-Amz-Signature') ?? '';
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    const tampered = [
      url.replace(signature, flipped),
      url.replace(
        encodeURIComponent('(1)').replace(/[()]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`),
        '%282%29',
      ),
      url.replace('X-Amz-Expires=60', 'X-Amz-Expires=61'),
    ];
    expect(tampered[1]).not.toBe(url);
    for (const each of tampered) {
      const answer = await sendRaw(each);
      expect(answer.status, each).toBe(403);
      expect(errorCode(answer.body)).toBe('SignatureDoesNotMatch');
    }
  });
});

describe('signature checks', () => {
  it('rejects a wrong secret (SignatureDoesNotMatch) and an unknown key id (InvalidAccessKeyId)', async () => {
    const wrongSecret = track(makeClient(target, 'WHEN_REQUIRED', { accessKeyId: target.credentials.accessKeyId, secretAccessKey: 'not-the-secret' }));
    await expectS3Error(wrongSecret.send(new PutObjectCommand({ Bucket: target.bucket, Key: k('sig/x'), Body: 'x' })), 'SignatureDoesNotMatch', 403);
    const unknown = track(makeClient(target, 'WHEN_REQUIRED', { accessKeyId: 'AKIAUNKNOWNKEYID0000', secretAccessKey: 'whatever' }));
    await expectS3Error(unknown.send(new GetObjectCommand({ Bucket: target.bucket, Key: k('sig/x') })), 'InvalidAccessKeyId', 403);
  });

  it('rejects a signature for another region (AuthorizationHeaderMalformed) and a stale date (RequestTimeTooSkewed)', async () => {
    const otherRegion = track(
      new S3Client({
        endpoint: target.endpoint,
        region: target.region === 'ap-south-1' ? 'sa-east-1' : 'ap-south-1',
        forcePathStyle: true,
        credentials: target.credentials,
        maxAttempts: 1,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    );
    await expectS3Error(otherRegion.send(new GetObjectCommand({ Bucket: target.bucket, Key: k('sig/x') })), 'AuthorizationHeaderMalformed', 400);
    const stale = await sendSigned(target, { method: 'GET', key: k('sig/x'), signingDate: new Date(Date.now() - 20 * 60_000) });
    expect(stale.status).toBe(403);
    expect(errorCode(stale.body)).toBe('RequestTimeTooSkewed');
  });

  it('rejects an anonymous request with AccessDenied', async () => {
    const url = `${target.endpoint}/${target.bucket}/${encodeURIComponent(k('sig/anon'))}`;
    const answer = await sendRaw(url);
    expect(answer.status).toBe(403);
    expect(errorCode(answer.body)).toBe('AccessDenied');
  });

  it('rejects a request changed after signing', async () => {
    const each = track(makeClient(target));
    each.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { headers: Record<string, string>; query: Record<string, string> };
        request.headers['x-amz-meta-note'] = 'changed';
        return next(args);
      },
      { step: 'deserialize', name: 'tamperAfterSigning' },
    );
    each.middlewareStack.add(
      (next) => async (args) => {
        (args.request as { headers: Record<string, string> }).headers['x-amz-meta-note'] = 'signed';
        return next(args);
      },
      { step: 'build', name: 'addSignedHeader' },
    );
    await expectS3Error(each.send(new PutObjectCommand({ Bucket: target.bucket, Key: k('sig/tampered'), Body: 'x' })), 'SignatureDoesNotMatch', 403);
  });
});

describe('temporary credentials of the embedded store', () => {
  const embeddedOnly = (): boolean => !target.embedded;

  it('keeps a restricted principal inside its prefix for every key it touches', async (ctx) => {
    if (embeddedOnly()) ctx.skip();
    const { restricted } = target;
    const limited = track(makeClient(target, 'WHEN_REQUIRED', restricted));
    const inside = `${restricted.allowedPrefix}clip.mp4`;
    const outside = k('outside/clip.mp4');
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: outside, Body: 'outside' }));

    await limited.send(new PutObjectCommand({ Bucket: target.bucket, Key: inside, Body: 'inside' }));
    expect((await getBytes(inside, limited)).toString()).toBe('inside');
    await expectS3Error(limited.send(new PutObjectCommand({ Bucket: target.bucket, Key: k('outside/new.mp4'), Body: 'x' })), 'AccessDenied', 403);
    await expectS3Error(limited.send(new GetObjectCommand({ Bucket: target.bucket, Key: outside })), 'AccessDenied', 403);
    await expectS3Error(limited.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: outside })), 'AccessDenied', 403);
    await expectS3Error(
      limited.send(
        new CopyObjectCommand({
          Bucket: target.bucket,
          Key: `${restricted.allowedPrefix}copy.mp4`,
          CopySource: `${target.bucket}/${encodeURIComponent(outside)}`,
        }),
      ),
      'AccessDenied',
      403,
    );
    await expectS3Error(limited.send(new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: outside })), 'AccessDenied', 403);
    await expectS3Error(limited.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('') })), 'AccessDenied', 403);
    const listed = await limited.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: restricted.allowedPrefix }));
    expect((listed.Contents ?? []).map((object) => object.Key)).toEqual([inside]);

    const deleted = await limited.send(new DeleteObjectsCommand({ Bucket: target.bucket, Delete: { Objects: [{ Key: inside }, { Key: outside }] } }));
    expect((deleted.Deleted ?? []).map((entry) => entry.Key)).toEqual([inside]);
    expect((deleted.Errors ?? []).map((entry) => [entry.Key, entry.Code])).toEqual([[outside, 'AccessDenied']]);
    expect((await getBytes(outside)).toString()).toBe('outside');
  });

  it('lets a restricted principal run a whole multipart upload inside its prefix', async (ctx) => {
    if (embeddedOnly()) ctx.skip();
    const limited = track(makeClient(target, 'default', target.restricted));
    const data = randomBytes(5 * MiB + 10);
    const key = `${target.restricted.allowedPrefix}multipart.bin`;
    const result = await new Upload({ client: limited, params: { Bucket: target.bucket, Key: key, Body: data }, partSize: 5 * MiB }).done();
    expect(result.ETag).toMatch(/-2"$/);
    expect(sha256(await getBytes(key))).toBe(sha256(data));
  }, 30_000);

  it('requires the session token of temporary credentials', async (ctx) => {
    if (embeddedOnly()) ctx.skip();
    const { restricted } = target;
    const key = `${restricted.allowedPrefix}token.txt`;
    const withoutToken = track(makeClient(target, 'WHEN_REQUIRED', { accessKeyId: restricted.accessKeyId, secretAccessKey: restricted.secretAccessKey }));
    await expectS3Error(withoutToken.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'x' })), 'InvalidAccessKeyId', 403);
    const wrongToken = track(makeClient(target, 'WHEN_REQUIRED', { ...restricted, sessionToken: 'not-the-token' }));
    await expectS3Error(wrongToken.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'x' })), 'InvalidToken', 400);
  });

  it('answers ExpiredToken once the principal has expired', async (ctx) => {
    if (embeddedOnly()) ctx.skip();
    const expired = track(makeClient(target, 'WHEN_REQUIRED', target.expired));
    await expectS3Error(expired.send(new PutObjectCommand({ Bucket: target.bucket, Key: k('expired.txt'), Body: 'x' })), 'ExpiredToken', 403);
  });

  it('serves a presigned GET made with temporary credentials, inside the prefix only', async (ctx) => {
    if (embeddedOnly()) ctx.skip();
    const limited = track(makeClient(target, 'WHEN_REQUIRED', target.restricted));
    const key = `${target.restricted.allowedPrefix}presigned.txt`;
    await limited.send(new PutObjectCommand({ Bucket: target.bucket, Key: key, Body: 'temporary' }));
    const url = await getSignedUrl(limited, new GetObjectCommand({ Bucket: target.bucket, Key: key }), { expiresIn: 60 });
    expect(new URL(url).searchParams.get('X-Amz-Security-Token')).toBe(target.restricted.sessionToken);
    const answer = await sendRaw(url);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('temporary');
    const outsideUrl = await getSignedUrl(limited, new GetObjectCommand({ Bucket: target.bucket, Key: k('outside/clip.mp4') }), { expiresIn: 60 });
    expect((await sendRaw(outsideUrl)).status).toBe(403);
  });
});

describe('CORS for the browser upload worker', () => {
  const origin = CORS_PAGE_ORIGIN;

  it('answers a preflight for a part PUT', async (ctx) => {
    if (!target.embedded) ctx.skip();
    const answer = await sendRaw(`${target.endpoint}/${target.bucket}/${encodeURIComponent(k('cors/part.bin'))}?partNumber=1&uploadId=x`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,x-amz-date,x-amz-content-sha256,content-type,x-amz-security-token',
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(origin);
    expect(String(answer.headers['access-control-allow-methods'])).toMatch(/PUT/);
    for (const method of ['GET', 'PUT', 'POST', 'DELETE', 'HEAD']) expect(String(answer.headers['access-control-allow-methods'])).toContain(method);
    expect(answer.headers['access-control-allow-headers']).toBe('authorization,x-amz-date,x-amz-content-sha256,content-type,x-amz-security-token');
  });

  it('exposes the ETag of a cross-origin PUT, and CORS headers on errors too', async (ctx) => {
    if (!target.embedded) ctx.skip();
    const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: target.bucket, Key: k('cors/object.bin') }), { expiresIn: 60 });
    const answer = await sendRaw(url, { method: 'PUT', headers: { origin, 'content-length': '5' }, body: 'hello' });
    expect(answer.status).toBe(200);
    expect(answer.headers.etag).toBe(`"${md5('hello').toString('hex')}"`);
    expect(answer.headers['access-control-allow-origin']).toBe(origin);
    const exposed = String(answer.headers['access-control-expose-headers'])
      .split(',')
      .map((name) => name.trim().toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['etag', 'x-amz-version-id', 'content-range', 'content-length']));
    const denied = await sendRaw(`${target.endpoint}/${target.bucket}/${encodeURIComponent(k('cors/nothing'))}`, { headers: { origin } });
    expect(denied.status).toBe(403);
    expect(denied.headers['access-control-allow-origin']).toBe(origin);
  });

  it('answers only its own origins: another page gets no Allow-Origin and its preflight is refused', async (ctx) => {
    if (!target.embedded) ctx.skip();
    const object = `${target.endpoint}/${target.bucket}/${encodeURIComponent(k('cors/other.bin'))}`;
    const preflight = (from: string) =>
      sendRaw(`${object}?partNumber=1&uploadId=x`, { method: 'OPTIONS', headers: { origin: from, 'access-control-request-method': 'PUT' } });
    for (const other of ['https://evil.example', 'http://localhost:5174', 'null']) {
      const refused = await preflight(other);
      expect(refused.status).toBe(403);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      expect(refused.headers['access-control-allow-methods']).toBeUndefined();
    }
    // Served (a signature authorizes it, not an origin), but not readable by that page.
    const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: target.bucket, Key: k('cors/other.bin') }), { expiresIn: 60 });
    const put = await sendRaw(url, { method: 'PUT', headers: { origin: 'https://evil.example', 'content-length': '2' }, body: 'hi' });
    expect(put.status).toBe(200);
    expect(put.headers['access-control-allow-origin']).toBeUndefined();
    expect(put.headers['access-control-expose-headers']).toBeUndefined();
    expect(String(put.headers.vary)).toMatch(/Origin/);
    // A page of the store's own origin needs no naming.
    const own = new URL(target.endpoint).origin;
    expect((await preflight(own)).headers['access-control-allow-origin']).toBe(own);
  });
});

describe('mounting and bucket-level calls', () => {
  it('accepts keys up to 1024 bytes and refuses longer ones (KeyTooLongError)', async () => {
    const longest = k('long/') + 'x'.repeat(1024 - Buffer.byteLength(k('long/')));
    await client.send(new PutObjectCommand({ Bucket: target.bucket, Key: longest, Body: 'long' }));
    expect((await getBytes(longest)).toString()).toBe('long');
    const listed = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: k('long/') }));
    expect((listed.Contents ?? []).map((object) => object.Key)).toEqual([longest]);
    await expectS3Error(client.send(new PutObjectCommand({ Bucket: target.bucket, Key: `${longest}y`, Body: 'x' })), 'KeyTooLongError', 400);
  });

  it('answers HeadBucket, CreateBucket of its own bucket and GetBucketLocation', async () => {
    expect((await client.send(new HeadBucketCommand({ Bucket: target.bucket }))).$metadata.httpStatusCode).toBe(200);
    const location = await client.send(new GetBucketLocationCommand({ Bucket: target.bucket }));
    expect(location.LocationConstraint ?? 'us-east-1').toBe(target.region);
  });

  it('answers NoSuchBucket for another bucket and lists only its own', async (ctx) => {
    if (!target.embedded) ctx.skip();
    await expectS3Error(client.send(new GetObjectCommand({ Bucket: 'some-other-bucket', Key: 'x' })), 'NoSuchBucket', 404);
    await expect(client.send(new CreateBucketCommand({ Bucket: target.bucket }))).resolves.toBeDefined();
    const buckets = await client.send(new ListBucketsCommand({}));
    expect((buckets.Buckets ?? []).map((bucket) => bucket.Name)).toEqual([target.bucket]);
  });

  it('leaves the JSON routes of the surrounding app alone', async (ctx) => {
    if (!target.embedded) ctx.skip();
    const origin = target.appOrigin ?? new URL(target.endpoint).origin;
    const answer = await sendRaw(`${origin}/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toEqual({ received: { hello: 'world' } });
  });
});
