import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AwsChunkedDecoder } from './aws-chunked.ts';
import { CHECKSUM_ALGORITHMS, checksumHeaderName, createChecksumHasher, parseChecksumAlgorithm } from './checksums.ts';
import type { ChecksumAlgorithm, ChecksumHasher } from './checksums.ts';
import { STORE_FILE_MODE } from './object-files.ts';
import { S3Error } from './s3-error.ts';
import { STREAMING_UNSIGNED_PAYLOAD_TRAILER } from './sigv4-verify.ts';

/**
 * Receives a request body as a stream — never whole in memory — removing aws-chunked
 * framing, and checks it against everything the client declared about it: length,
 * x-amz-content-sha256, Content-MD5 and x-amz-checksum-* (header or trailer).
 */

export interface BodyExpectations {
  headers: IncomingHttpHeaders;
  /** x-amz-content-sha256 as authenticated (UNSIGNED-PAYLOAD for presigned requests). */
  contentSha256: string;
  maxSize: number;
  /** Compute this checksum even when the client sent none (uploads created with an algorithm). */
  computeChecksum?: ChecksumAlgorithm;
  /**
   * The x-amz-checksum-* headers describe the object being made, not this body: on
   * CompleteMultipartUpload they carry the whole object's checksum (checked there).
   */
  checksumHeadersDescribeObject?: boolean;
}

export interface ReceivedBody {
  size: number;
  md5: Buffer;
  checksum?: { algorithm: ChecksumAlgorithm; value: string };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function declaredLength(headers: IncomingHttpHeaders, framed: boolean, hasBody: boolean): number {
  const name = framed ? 'x-amz-decoded-content-length' : 'content-length';
  const text = header(headers, name);
  if (text === undefined) {
    if (!hasBody) return 0;
    throw new S3Error('MissingContentLength', framed ? 'You must provide the x-amz-decoded-content-length header with aws-chunked bodies.' : undefined);
  }
  if (!/^\d+$/.test(text)) throw new S3Error('InvalidArgument', `${name} must be a non-negative integer.`);
  return Number(text);
}

interface ExpectedChecksum {
  algorithm: ChecksumAlgorithm;
  /** Sent as a header; undefined when it comes as a trailer or the server computes it unasked. */
  headerValue?: string;
  trailerName?: string;
}

function expectedChecksum(headers: IncomingHttpHeaders, computeChecksum: ChecksumAlgorithm | undefined, ofObject: boolean): ExpectedChecksum | undefined {
  for (const algorithm of ofObject ? [] : CHECKSUM_ALGORITHMS) {
    const value = header(headers, checksumHeaderName(algorithm));
    if (value !== undefined) return { algorithm, headerValue: value };
  }
  const trailer = header(headers, 'x-amz-trailer')?.trim().toLowerCase();
  if (trailer !== undefined) {
    const algorithm = trailer.startsWith('x-amz-checksum-') ? parseChecksumAlgorithm(trailer.slice('x-amz-checksum-'.length)) : undefined;
    if (!algorithm) throw new S3Error('InvalidRequest', `Unsupported trailing header: ${trailer}`);
    return { algorithm, trailerName: trailer };
  }
  return computeChecksum ? { algorithm: computeChecksum } : undefined;
}

/** Hashes and counts what passes through; stops a body that runs past its declared length. */
class BodyMeter extends Transform {
  size = 0;
  readonly md5 = createHash('md5');
  readonly sha256: Hash | null;
  readonly checksum: ChecksumHasher | null;
  private readonly limit: number;

  constructor(limit: number, wantSha256: boolean, checksum: ChecksumHasher | null) {
    super();
    this.limit = limit;
    this.sha256 = wantSha256 ? createHash('sha256') : null;
    this.checksum = checksum;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      callback(new S3Error('InvalidRequest', 'The request body is longer than its declared length.'));
      return;
    }
    this.md5.update(chunk);
    this.sha256?.update(chunk);
    this.checksum?.update(chunk);
    callback(null, chunk);
  }
}

function verifyContentMd5(headers: IncomingHttpHeaders, md5: Buffer): void {
  const declared = header(headers, 'content-md5');
  if (declared === undefined) return;
  const bytes = Buffer.from(declared, 'base64');
  if (bytes.length !== 16) throw new S3Error('InvalidDigest', 'The Content-MD5 you specified was invalid.');
  if (!bytes.equals(md5)) throw new S3Error('BadDigest', undefined, { ExpectedDigest: declared, CalculatedDigest: md5.toString('base64') });
}

/** Streams the body into `sink` and verifies it; the caller discards what the sink received if this throws. */
export async function receiveBody(source: Readable | undefined, sink: Writable, expect: BodyExpectations): Promise<ReceivedBody> {
  const { headers, contentSha256 } = expect;
  const framed = contentSha256 === STREAMING_UNSIGNED_PAYLOAD_TRAILER;
  const length = declaredLength(headers, framed, source !== undefined);
  if (length > expect.maxSize) {
    throw new S3Error('EntityTooLarge', undefined, { ProposedSize: String(length), MaxSizeAllowed: String(expect.maxSize) });
  }
  const checksum = expectedChecksum(headers, expect.computeChecksum, expect.checksumHeadersDescribeObject === true);
  const hasher = checksum ? createChecksumHasher(checksum.algorithm) : null;
  const meter = new BodyMeter(length, /^[0-9a-f]{64}$/.test(contentSha256), hasher);
  const decoder = framed ? new AwsChunkedDecoder() : null;

  // The request is piped, not handed to pipeline(): on a bad body pipeline() would destroy
  // it, and with it the socket the S3 error answer has to travel back on.
  const input = source ?? Readable.from([]);
  const entry = new PassThrough();
  const onSourceError = (error: Error): void => {
    entry.destroy(error);
  };
  input.on('error', onSourceError);
  input.pipe(entry);
  try {
    await (decoder ? pipeline(entry, decoder, meter, sink) : pipeline(entry, meter, sink));
  } catch (error) {
    // The rest of a body that stopped half-way (the sink failed: a full disk) is read and
    // dropped, so the client, still sending, finishes and reads the error answer; left unread,
    // the connection stalled with the client blocked on its send (issue 32).
    input.unpipe(entry);
    if (!input.readableEnded) input.on('error', () => undefined).resume();
    throw error;
  } finally {
    input.unpipe(entry);
    input.off('error', onSourceError);
  }

  if (meter.size !== length) throw new S3Error('IncompleteBody');
  if (meter.sha256) {
    const computed = meter.sha256.digest('hex');
    if (computed !== contentSha256) {
      throw new S3Error('XAmzContentSHA256Mismatch', undefined, { ClientComputedContentSHA256: contentSha256, S3ComputedContentSHA256: computed });
    }
  }
  const md5 = meter.md5.digest();
  verifyContentMd5(headers, md5);
  if (!checksum) return { size: meter.size, md5 };

  const declared = checksum.headerValue ?? (checksum.trailerName ? decoder?.trailers.get(checksum.trailerName) : undefined);
  if (checksum.trailerName && declared === undefined) {
    throw new S3Error('InvalidRequest', `The request declared the trailer ${checksum.trailerName} but did not send it.`);
  }
  const computed = hasher?.digestBase64();
  if (declared !== undefined && computed !== undefined && declared !== computed) {
    throw new S3Error('BadDigest', `The ${checksum.algorithm} you specified did not match the calculated checksum.`);
  }
  const value = declared ?? computed;
  return { size: meter.size, md5, ...(value !== undefined && { checksum: { algorithm: checksum.algorithm, value } }) };
}

/** Receives a body into a new file; the file is removed again when anything fails. */
export async function receiveBodyToFile(source: Readable | undefined, path: string, expect: BodyExpectations): Promise<ReceivedBody> {
  try {
    return await receiveBody(source, createWriteStream(path, { flags: 'wx', mode: STORE_FILE_MODE }), expect);
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

/** Receives a small XML request body into memory (maxSize caps it before reading). */
export async function receiveSmallBody(source: Readable | undefined, expect: BodyExpectations): Promise<ReceivedBody & { body: Buffer }> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  const received = await receiveBody(source, sink, expect);
  return { ...received, body: Buffer.concat(chunks) };
}
