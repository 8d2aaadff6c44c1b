import { createHash } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';

/**
 * Copying every object of one S3 bucket into another (issue 15, `npm run move-data`): streamed
 * (never whole in memory), each one's SHA-256 computed on the way and kept on the copy as
 * `x-amz-meta-sha256`, then checked by reading the copy back. An object already in the target
 * with the same size and checksum is skipped, so an interrupted move runs again without sending
 * it twice. Issue 32: the multipart upload of an object that does not finish (an interruption,
 * a failure) is aborted, and a run aborts those an earlier run left (a kill, a lost connection).
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

export interface Bucket {
  client: S3Client;
  bucket: string;
}

/** Objects larger than this go in parts of this size, PART_QUEUE at a time; smaller ones in one PUT. */
const PART_BYTES = 16 * 1024 * 1024;
const PART_QUEUE = 4;

export async function* listObjects(client: S3Client, bucket: string): AsyncGenerator<SourceObject> {
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ...(token && { ContinuationToken: token }) }));
    for (const object of page.Contents ?? []) if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

async function sha256OfObject(from: Bucket, key: string, signal?: AbortSignal): Promise<{ sha256: string; size: number }> {
  const object = await from.client.send(new GetObjectCommand({ Bucket: from.bucket, Key: key }), { abortSignal: signal });
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of object.Body as Readable) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Whether `error` is a request given up because the move was interrupted. */
export function isAbort(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'AbortError';
}

/** The bytes of `stream` in pieces of `size` (the last one shorter), each piece whole in memory. */
async function* pieces(stream: Readable, size: number, onBytes: (bytes: number) => void): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    onBytes(bytes.length);
    held.push(bytes);
    heldBytes += bytes.length;
    while (heldBytes >= size) {
      const all = Buffer.concat(held);
      yield all.subarray(0, size);
      held = [all.subarray(size)];
      heldBytes -= size;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held);
}

/**
 * Aborts the multipart uploads in `target` whose key is one of `keys` (what this move copies:
 * nothing else of the bucket is touched, however old), and answers their keys. Twice at most:
 * a part still arriving when an upload is aborted can leave it listed (AWS says to abort again).
 */
export async function abortLeftUploads(target: Bucket, keys: ReadonlySet<string>): Promise<string[]> {
  const aborted: string[] = [];
  for (let round = 0; round < 2; round += 1) {
    const left: { Key: string; UploadId: string }[] = [];
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await target.client.send(
        new ListMultipartUploadsCommand({
          Bucket: target.bucket,
          ...(keyMarker && { KeyMarker: keyMarker }),
          ...(uploadIdMarker && { UploadIdMarker: uploadIdMarker }),
        }),
      );
      for (const upload of page.Uploads ?? [])
        if (upload.Key && upload.UploadId && keys.has(upload.Key)) left.push({ Key: upload.Key, UploadId: upload.UploadId });
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    if (left.length === 0) break;
    for (const upload of left) {
      await target.client
        .send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: upload.Key, UploadId: upload.UploadId }))
        .catch((error: unknown) => {
          if ((error as { name?: string }).name !== 'NoSuchUpload') throw error;
        });
      if (round === 0) aborted.push(upload.Key);
    }
  }
  return aborted;
}

export type CopyOutcome = 'copied' | 'skipped' | 'mismatch';

export interface CopyOptions {
  /** Hears the bytes as they are read from the source. */
  onBytes: (bytes: number) => void;
  /** Aborts the copy: the requests in flight are given up and the object's multipart upload aborted. */
  signal?: AbortSignal;
  /** Hears the key of a multipart upload this copy began and aborted because it did not finish. */
  onAbortedUpload?: (key: string) => void;
}

/** Copies one object (or finds it copied already). */
export async function copyObject(source: Bucket, target: Bucket, object: SourceObject, options: CopyOptions): Promise<CopyOutcome> {
  const { onBytes, signal } = options;
  const existing = await target.client
    .send(new HeadObjectCommand({ Bucket: target.bucket, Key: object.key }), { abortSignal: signal })
    .catch((error: unknown) => {
      if (isAbort(error)) throw error;
      return null;
    });
  if (existing?.ContentLength === object.size && existing.Metadata?.sha256) {
    const { sha256 } = await sha256OfObject(source, object.key, signal);
    if (sha256 === existing.Metadata.sha256) {
      onBytes(object.size);
      return 'skipped';
    }
  }
  // The upload needs its metadata before the first byte, so the checksum is read first, then checked on the copy.
  const first = await sha256OfObject(source, object.key, signal);
  const read = await source.client.send(new GetObjectCommand({ Bucket: source.bucket, Key: object.key }), { abortSignal: signal });
  const body = read.Body as Readable;
  // The headers a download answers with travel along: a file keeps its type and its name.
  const params = {
    Bucket: target.bucket,
    Key: object.key,
    ContentType: read.ContentType ?? 'binary/octet-stream',
    ...(read.CacheControl && { CacheControl: read.CacheControl }),
    ...(read.ContentDisposition && { ContentDisposition: read.ContentDisposition }),
    ...(read.ContentEncoding && { ContentEncoding: read.ContentEncoding }),
    ...(read.ContentLanguage && { ContentLanguage: read.ContentLanguage }),
    Metadata: { ...read.Metadata, sha256: first.sha256 },
  };
  try {
    if (object.size <= PART_BYTES) {
      const whole: Buffer[] = [];
      for await (const piece of pieces(body, PART_BYTES, onBytes)) whole.push(piece);
      await target.client.send(new PutObjectCommand({ ...params, Body: Buffer.concat(whole) }), { abortSignal: signal });
    } else {
      await uploadInParts(target, params, body, options);
    }
  } finally {
    body.destroy();
  }
  const copy = await sha256OfObject(target, object.key, signal);
  return copy.sha256 === first.sha256 && copy.size === object.size ? 'copied' : 'mismatch';
}

/** A multipart upload of `body`, PART_QUEUE parts in flight; aborted (and said so) when it does not complete. */
async function uploadInParts(
  target: Bucket,
  params: { Bucket: string; Key: string } & Record<string, unknown>,
  body: Readable,
  options: CopyOptions,
): Promise<void> {
  const { signal } = options;
  const { UploadId } = await target.client.send(new CreateMultipartUploadCommand(params), { abortSignal: signal });
  const parts: CompletedPart[] = [];
  const inFlight = new Set<Promise<void>>();
  try {
    let number = 0;
    for await (const piece of pieces(body, PART_BYTES, options.onBytes)) {
      signal?.throwIfAborted();
      const partNumber = (number += 1);
      const sent: Promise<void> = target.client
        .send(new UploadPartCommand({ Bucket: params.Bucket, Key: params.Key, UploadId, PartNumber: partNumber, Body: piece }), { abortSignal: signal })
        .then(({ ETag }) => {
          parts[partNumber - 1] = { PartNumber: partNumber, ETag };
          inFlight.delete(sent);
        });
      sent.catch(() => undefined); // awaited below (a failure is thrown there)
      inFlight.add(sent);
      if (inFlight.size >= PART_QUEUE) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    await target.client.send(new CompleteMultipartUploadCommand({ Bucket: params.Bucket, Key: params.Key, UploadId, MultipartUpload: { Parts: parts } }), {
      abortSignal: signal,
    });
  } catch (error) {
    // Parts still in flight end first (given up with the signal, or failed), then the upload goes.
    await Promise.allSettled(inFlight);
    const aborted = await target.client.send(new AbortMultipartUploadCommand({ Bucket: params.Bucket, Key: params.Key, UploadId })).then(
      () => true,
      () => false,
    );
    if (aborted) options.onAbortedUpload?.(params.Key);
    throw error;
  }
}

/**
 * What kind of store the target is, for the settings a server on it needs: `cutdesk` when it is
 * another Cutdesk's embedded store (it names its owner `cutdesk`, server/storage/embedded-s3/context.ts),
 * which has no STS and checks browsers' upload credentials in the database instead; `s3` for any
 * other service (its owner is an account's id); `unknown` when neither listing answers.
 */
export type TargetKind = 'cutdesk' | 's3' | 'unknown';

export async function targetKind(target: Bucket): Promise<TargetKind> {
  const ofAnObject = await target.client.send(new ListObjectsV2Command({ Bucket: target.bucket, MaxKeys: 1, FetchOwner: true })).then(
    (page) => page.Contents?.[0]?.Owner?.ID,
    () => undefined,
  );
  const owner =
    ofAnObject ??
    (await target.client.send(new ListBucketsCommand({})).then(
      (page) => page.Owner?.ID,
      () => undefined,
    ));
  if (owner === undefined) return 'unknown';
  return owner === 'cutdesk' ? 'cutdesk' : 's3';
}
