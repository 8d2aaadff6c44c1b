import type { Readable } from 'node:stream';
import type { BucketLocationConstraint, S3Client } from '@aws-sdk/client-s3';
import { presentationFor } from '../../src/domain/served-content.ts';

/**
 * The one storage interface the server uses for every object. It speaks plain S3 through
 * the SDK, so it works the same against the embedded endpoint and against any
 * S3-compatible service (AWS S3, MinIO, Ceph RGW, R2).
 *
 * ETags are returned without their surrounding quotes.
 */

export interface ObjectStoreConfig {
  /** Omit for AWS S3; e.g. `http://127.0.0.1:3000/s3` for the embedded store (the path prefix is kept). */
  endpoint?: string;
  region: string;
  bucket: string;
  /**
   * Static keys; empty (external mode without S3_ACCESS_KEY_ID) means the SDK's default credential
   * chain: environment, shared config and SSO profiles, web identity, ECS task and EC2 instance roles.
   */
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`): required by the embedded store and most non-AWS services. */
  forcePathStyle?: boolean;
}

export interface ObjectHead {
  size: number;
  etag: string;
  contentType: string;
  lastModified?: Date;
}

/** Inclusive byte range; `end` omitted means to the end of the object. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface ObjectStream {
  body: Readable;
  /** Bytes in `body`. */
  contentLength: number;
  contentType: string;
  etag: string;
  /** Set for ranged reads: `bytes <start>-<end>/<size>`. */
  contentRange?: string;
}

export interface StoredPart {
  partNumber: number;
  etag: string;
  size: number;
  lastModified?: Date;
}

export interface MultipartUploadInfo {
  key: string;
  uploadId: string;
  initiated: Date;
}

export interface DeleteObjectsResult {
  deleted: string[];
  errors: Array<{ key: string; code: string; message: string }>;
}

export interface ObjectStore {
  readonly bucket: string;
  /** Size, ETag and type of an object, or null when it does not exist. */
  headObject(key: string): Promise<ObjectHead | null>;
  /** Buffers and strings go in one PUT; streams of unknown length go multipart as needed. */
  putObject(key: string, body: Uint8Array | string | Readable, contentType?: string): Promise<{ etag: string }>;
  /**
   * The object's bytes as a stream, or null when it does not exist. `range` is a ByteRange or a
   * raw Range header value (e.g. forwarded from a browser); an unsatisfiable range throws InvalidRange.
   */
  getObjectStream(key: string, range?: ByteRange | string): Promise<ObjectStream | null>;
  /** Succeeds whether or not the object existed. */
  deleteObject(key: string): Promise<void>;
  /** Deletes in batches of 1,000; per-key failures are reported, not thrown. */
  deleteObjects(keys: string[]): Promise<DeleteObjectsResult>;
  /**
   * A GET URL valid for `expiresSeconds`, naming a passive type for the key and `inline` only
   * for what the player shows; with downloadName (or any other type) the browser saves it.
   */
  presignGet(key: string, expiresSeconds: number, downloadName?: string): Promise<string>;
  /** Every part stored so far, by part number; null when the upload does not exist. */
  listParts(key: string, uploadId: string): Promise<StoredPart[] | null>;
  /** Succeeds when the upload is already gone. */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
  /** Every multipart upload in progress (optionally under a prefix), with when it started. */
  listMultipartUploads(prefix?: string): Promise<MultipartUploadInfo[]>;
  /** Creates the bucket when it does not exist yet. */
  ensureBucket(): Promise<void>;
  /** Closes the client's sockets. */
  destroy(): void;
}

const STREAM_PART_BYTES = 8 * 1024 ** 2;
const DELETE_BATCH = 1000;
const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

/** An ETag without its quotes, as the SDK and this interface hand it on. */
export function unquote(etag: string | undefined): string {
  return (etag ?? '').replace(/^"|"$/g, '');
}

function errorName(error: unknown): string | undefined {
  return (error as { name?: string } | undefined)?.name;
}

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

function isNotFound(error: unknown, codes: string[]): boolean {
  const name = errorName(error);
  return (name !== undefined && codes.includes(name)) || httpStatus(error) === 404;
}

/** RFC 6266 attachment with an ASCII fallback and the exact UTF-8 name. */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function rangeHeader(range: ByteRange | string | undefined): string | undefined {
  if (range === undefined || typeof range === 'string') return range;
  return `bytes=${range.start}-${range.end ?? ''}`;
}

interface AwsSdk {
  s3: typeof import('@aws-sdk/client-s3');
  Upload: typeof import('@aws-sdk/lib-storage').Upload;
  getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
}

let sdkLoading: Promise<AwsSdk> | undefined;

/**
 * The AWS SDK (≈ 0.1 s of CPU to load) is loaded with a store's first request, not with the
 * server (issue 14): the embedded store's client is only used once the server listens.
 */
function awsSdk(): Promise<AwsSdk> {
  return (sdkLoading ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage'), import('@aws-sdk/s3-request-presigner')]).then(
    ([s3, storage, presigner]) => ({ s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl }),
  ));
}

export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  const { bucket } = config;
  const newClient = ({ S3Client }: AwsSdk['s3']) =>
    new S3Client({
      ...(config.endpoint !== undefined && { endpoint: config.endpoint }),
      region: config.region,
      forcePathStyle: config.forcePathStyle ?? false,
      ...(config.accessKeyId &&
        config.secretAccessKey && {
          credentials: {
            accessKeyId: config.accessKeyId,
            secretAccessKey: config.secretAccessKey,
            ...(config.sessionToken !== undefined && { sessionToken: config.sessionToken }),
          },
        }),
      // ARCHITECTURE §6: S3-compatible services other than AWS handle the SDK's default
      // flexible checksums unevenly; send and check them only where an operation requires.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  let made: Promise<AwsSdk & { client: S3Client }> | undefined;
  const ready = () => (made ??= awsSdk().then((sdk) => ({ ...sdk, client: newClient(sdk.s3) })));

  const headObject = async (key: string): Promise<ObjectHead | null> => {
    const { s3, client } = await ready();
    try {
      const head = await client.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: key }));
      return {
        size: head.ContentLength ?? 0,
        etag: unquote(head.ETag),
        contentType: head.ContentType ?? 'binary/octet-stream',
        ...(head.LastModified && { lastModified: head.LastModified }),
      };
    } catch (error) {
      if (isNotFound(error, ['NotFound', 'NoSuchKey'])) return null;
      throw error;
    }
  };

  const putObject = async (key: string, body: Uint8Array | string | Readable, contentType?: string): Promise<{ etag: string }> => {
    const { s3, client, Upload } = await ready();
    const type = contentType !== undefined ? { ContentType: contentType } : {};
    if (typeof body === 'string' || body instanceof Uint8Array) {
      const result = await client.send(new s3.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...type }));
      return { etag: unquote(result.ETag) };
    }
    const upload = new Upload({ client, params: { Bucket: bucket, Key: key, Body: body, ...type }, partSize: STREAM_PART_BYTES, queueSize: 4 });
    const result = await upload.done();
    return { etag: unquote(result.ETag) };
  };

  const getObjectStream = async (key: string, range?: ByteRange | string): Promise<ObjectStream | null> => {
    const { s3, client } = await ready();
    try {
      const header = rangeHeader(range);
      const result = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key, ...(header !== undefined && { Range: header }) }));
      return {
        body: result.Body as Readable,
        contentLength: result.ContentLength ?? 0,
        contentType: result.ContentType ?? 'binary/octet-stream',
        etag: unquote(result.ETag),
        ...(result.ContentRange !== undefined && { contentRange: result.ContentRange }),
      };
    } catch (error) {
      if (isNotFound(error, ['NoSuchKey', 'NotFound'])) return null;
      throw error;
    }
  };

  const deleteObject = async (key: string): Promise<void> => {
    const { s3, client } = await ready();
    await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: key }));
  };

  const deleteObjects = async (keys: string[]): Promise<DeleteObjectsResult> => {
    const { s3, client } = await ready();
    const result: DeleteObjectsResult = { deleted: [], errors: [] };
    for (let offset = 0; offset < keys.length; offset += DELETE_BATCH) {
      const batch = keys.slice(offset, offset + DELETE_BATCH);
      const answer = await client.send(
        new s3.DeleteObjectsCommand({
          Bucket: bucket,
          Delete: { Objects: batch.map((key) => ({ Key: key })), Quiet: false },
        }),
      );
      for (const deleted of answer.Deleted ?? []) if (deleted.Key !== undefined) result.deleted.push(deleted.Key);
      for (const failed of answer.Errors ?? []) {
        result.errors.push({ key: failed.Key ?? '', code: failed.Code ?? 'Unknown', message: failed.Message ?? '' });
      }
    }
    return result;
  };

  const presignGet = async (key: string, expiresSeconds: number, downloadName?: string): Promise<string> => {
    const { s3, client, getSignedUrl } = await ready();
    // The URL names a passive type and the disposition itself (issue 9): the stored type is
    // the uploader's word, and a separate S3 endpoint sends neither nosniff nor a sandbox.
    const shown = presentationFor(key, downloadName);
    const command = new s3.GetObjectCommand({
      Bucket: bucket,
      Key: key,
      ResponseContentType: shown.contentType,
      ResponseContentDisposition: shown.inline ? 'inline' : attachmentDisposition(shown.fileName),
    });
    const expiresIn = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.floor(expiresSeconds)));
    return getSignedUrl(client, command, { expiresIn });
  };

  const listParts = async (key: string, uploadId: string): Promise<StoredPart[] | null> => {
    const { s3, client } = await ready();
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const page = await client.send(
          new s3.ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, ...(marker !== undefined && { PartNumberMarker: marker }) }),
        );
        for (const part of page.Parts ?? []) {
          parts.push({
            partNumber: part.PartNumber ?? 0,
            etag: unquote(part.ETag),
            size: part.Size ?? 0,
            ...(part.LastModified && { lastModified: part.LastModified }),
          });
        }
        if (!page.IsTruncated || page.NextPartNumberMarker === undefined) return parts;
        marker = page.NextPartNumberMarker;
      }
    } catch (error) {
      if (isNotFound(error, ['NoSuchUpload'])) return null;
      throw error;
    }
  };

  const abortMultipartUpload = async (key: string, uploadId: string): Promise<void> => {
    const { s3, client } = await ready();
    try {
      await client.send(new s3.AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (!isNotFound(error, ['NoSuchUpload'])) throw error;
    }
  };

  const listMultipartUploads = async (prefix?: string): Promise<MultipartUploadInfo[]> => {
    const { s3, client } = await ready();
    const uploads: MultipartUploadInfo[] = [];
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await client.send(
        new s3.ListMultipartUploadsCommand({
          Bucket: bucket,
          ...(prefix !== undefined && { Prefix: prefix }),
          ...(keyMarker !== undefined && { KeyMarker: keyMarker }),
          ...(uploadIdMarker !== undefined && { UploadIdMarker: uploadIdMarker }),
        }),
      );
      for (const upload of page.Uploads ?? []) {
        if (upload.Key === undefined || upload.UploadId === undefined) continue;
        uploads.push({ key: upload.Key, uploadId: upload.UploadId, initiated: upload.Initiated ?? new Date(0) });
      }
      if (!page.IsTruncated) return uploads;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
      if (keyMarker === undefined) return uploads;
    }
  };

  const ensureBucket = async (): Promise<void> => {
    const { s3, client } = await ready();
    try {
      await client.send(new s3.HeadBucketCommand({ Bucket: bucket }));
      return;
    } catch (error) {
      if (!isNotFound(error, ['NotFound', 'NoSuchBucket'])) {
        throw new Error(`Object storage: bucket "${bucket}" is not usable (${errorName(error) ?? 'error'} ${httpStatus(error) ?? ''}).`, { cause: error });
      }
    }
    try {
      await client.send(
        new s3.CreateBucketCommand({
          Bucket: bucket,
          ...(config.region !== 'us-east-1' && { CreateBucketConfiguration: { LocationConstraint: config.region as BucketLocationConstraint } }),
        }),
      );
    } catch (error) {
      if (errorName(error) !== 'BucketAlreadyOwnedByYou') throw error;
    }
  };

  return {
    bucket,
    headObject,
    putObject,
    getObjectStream,
    deleteObject,
    deleteObjects,
    presignGet,
    listParts,
    abortMultipartUpload,
    listMultipartUploads,
    ensureBucket,
    destroy: () =>
      void made?.then(
        ({ client }) => client.destroy(),
        () => undefined,
      ),
  };
}
