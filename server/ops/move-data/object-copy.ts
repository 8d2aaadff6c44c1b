import { createHash } from 'node:crypto';
import { HeadObjectCommand, ListObjectsV2Command, S3Client, GetObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough, type Readable } from 'node:stream';

/**
 * Copying every object of one S3 bucket into another (issue 15, `npm run move-data`): streamed
 * (never whole in memory), each one's SHA-256 computed on the way and kept on the copy as
 * `x-amz-meta-sha256`, then checked by reading the copy back. An object already in the target
 * with the same size and checksum is skipped, so an interrupted move runs again without sending
 * it twice.
 */

export interface BucketAccess {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export function clientOf(access: BucketAccess): S3Client {
  return new S3Client({
    ...(access.endpoint && { endpoint: access.endpoint }),
    region: access.region,
    forcePathStyle: access.forcePathStyle,
    ...(access.accessKeyId && access.secretAccessKey && { credentials: { accessKeyId: access.accessKeyId, secretAccessKey: access.secretAccessKey } }),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export interface SourceObject {
  key: string;
  size: number;
}

export async function* listObjects(client: S3Client, bucket: string): AsyncGenerator<SourceObject> {
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ...(token && { ContinuationToken: token }) }));
    for (const object of page.Contents ?? []) if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

async function sha256OfObject(client: S3Client, bucket: string, key: string): Promise<{ sha256: string; size: number }> {
  const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of object.Body as Readable) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

export type CopyOutcome = 'copied' | 'skipped' | 'mismatch';

/** Copies one object (or finds it copied already); `onBytes` hears the bytes as they go. */
export async function copyObject(source: { client: S3Client; bucket: string }, target: { client: S3Client; bucket: string }, object: SourceObject, onBytes: (bytes: number) => void): Promise<CopyOutcome> {
  const existing = await target.client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: object.key })).catch(() => null);
  if (existing?.ContentLength === object.size && existing.Metadata?.sha256) {
    const { sha256 } = await sha256OfObject(source.client, source.bucket, object.key);
    if (sha256 === existing.Metadata.sha256) {
      onBytes(object.size);
      return 'skipped';
    }
  }
  // The upload needs its metadata before the first byte, so the checksum is read first, then checked on the copy.
  const first = await sha256OfObject(source.client, source.bucket, object.key);
  const read = await source.client.send(new GetObjectCommand({ Bucket: source.bucket, Key: object.key }));
  const body = new PassThrough();
  (read.Body as Readable).on('data', (chunk: Buffer) => onBytes(chunk.length)).pipe(body);
  await new Upload({
    client: target.client,
    // The headers a download answers with travel along: a file keeps its type and its name.
    params: {
      Bucket: target.bucket,
      Key: object.key,
      Body: body,
      ContentType: read.ContentType ?? 'binary/octet-stream',
      ...(read.CacheControl && { CacheControl: read.CacheControl }),
      ...(read.ContentDisposition && { ContentDisposition: read.ContentDisposition }),
      ...(read.ContentEncoding && { ContentEncoding: read.ContentEncoding }),
      ...(read.ContentLanguage && { ContentLanguage: read.ContentLanguage }),
      Metadata: { ...read.Metadata, sha256: first.sha256 },
    },
    partSize: 16 * 1024 * 1024,
    queueSize: 4,
  }).done();
  const copy = await sha256OfObject(target.client, target.bucket, object.key);
  return copy.sha256 === first.sha256 && copy.size === object.size ? 'copied' : 'mismatch';
}
