import { rm } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { checksumElementName, checksumHeaderName, parseChecksumAlgorithm } from './checksums.ts';
import type { ChecksumAlgorithm } from './checksums.ts';
import { MAX_OBJECT_PUT_BYTES, MAX_PART_NUMBER, OWNER_XML, assertKeyAllowed, integerParam, requestHeader, sendXml } from './context.ts';
import type { S3Context } from './context.ts';
import { copyBytesToFile } from './copy-bytes.ts';
import type { PartRecord, UploadRecord } from './multipart.ts';
import { openCopySource, parseCopySource } from './object-handlers.ts';
import { contentTypeFrom, storedHeadersFrom, userMetadataFrom } from './object-headers.ts';
import { receiveBodyToFile } from './receive-body.ts';
import { queryValue } from './request-url.ts';
import { S3Error } from './s3-error.ts';
import { element, textElement, xmlDocument } from './xml.ts';

/** CreateMultipartUpload, UploadPart (and UploadPartCopy), ListParts and AbortMultipartUpload. */

function partNumberParam(ctx: S3Context): number {
  const text = queryValue(ctx.target.query, 'partNumber') ?? '';
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= MAX_PART_NUMBER)) {
    throw new S3Error('InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive', { ArgumentName: 'partNumber', ArgumentValue: text });
  }
  return value;
}

/** The upload named by ?uploadId, which must belong to the key in the path. */
export async function uploadFor(ctx: S3Context): Promise<UploadRecord> {
  const uploadId = queryValue(ctx.target.query, 'uploadId') ?? '';
  const upload = await ctx.uploads.get(uploadId);
  if (!upload || upload.key !== ctx.target.key) throw new S3Error('NoSuchUpload', undefined, { UploadId: uploadId });
  return upload;
}

export function checksumXml(checksum: { algorithm: ChecksumAlgorithm; value: string } | undefined): string {
  return checksum ? textElement(checksumElementName(checksum.algorithm), checksum.value) : '';
}

export async function createMultipartUpload(ctx: S3Context): Promise<FastifyReply> {
  const { key } = ctx.target;
  assertKeyAllowed(ctx, key);
  const headers = ctx.request.headers;
  const algorithmHeader = requestHeader(ctx, 'x-amz-checksum-algorithm');
  const checksumAlgorithm = parseChecksumAlgorithm(algorithmHeader);
  if (algorithmHeader !== undefined && !checksumAlgorithm)
    throw new S3Error('InvalidRequest', `Checksum algorithm provided is unsupported: ${algorithmHeader}`);
  const checksumType = requestHeader(ctx, 'x-amz-checksum-type')?.toUpperCase() === 'FULL_OBJECT' ? 'FULL_OBJECT' : 'COMPOSITE';
  const upload = await ctx.uploads.create({
    key,
    contentType: contentTypeFrom(headers),
    headers: storedHeadersFrom(headers),
    userMetadata: userMetadataFrom(headers),
    ...(checksumAlgorithm && { checksumAlgorithm, checksumType }),
  });
  if (upload.checksumAlgorithm) {
    ctx.reply.header('x-amz-checksum-algorithm', upload.checksumAlgorithm);
    ctx.reply.header('x-amz-checksum-type', upload.checksumType ?? 'COMPOSITE');
  }
  return sendXml(
    ctx,
    xmlDocument('InitiateMultipartUploadResult', [
      textElement('Bucket', ctx.options.bucket),
      textElement('Key', key),
      textElement('UploadId', upload.uploadId),
    ]),
  );
}

export async function uploadPart(ctx: S3Context): Promise<FastifyReply> {
  assertKeyAllowed(ctx, ctx.target.key);
  const partNumber = partNumberParam(ctx);
  const upload = await uploadFor(ctx);
  if (requestHeader(ctx, 'x-amz-copy-source') !== undefined) return uploadPartCopy(ctx, upload, partNumber);
  const temp = ctx.objects.newTempPath();
  const received = await receiveBodyToFile(ctx.body, temp, {
    headers: ctx.request.headers,
    contentSha256: ctx.auth.contentSha256,
    maxSize: MAX_OBJECT_PUT_BYTES,
    ...(upload.checksumAlgorithm && { computeChecksum: upload.checksumAlgorithm }),
  });
  if (upload.checksumAlgorithm && received.checksum && received.checksum.algorithm !== upload.checksumAlgorithm) {
    await rm(temp, { force: true });
    throw new S3Error(
      'InvalidRequest',
      `Checksum Type mismatch occurred, expected checksum Type: ${upload.checksumAlgorithm.toLowerCase()}, actual checksum Type: ${received.checksum.algorithm.toLowerCase()}`,
    );
  }
  const part = await ctx.uploads.putPart(upload.uploadId, partNumber, temp, {
    etag: `"${received.md5.toString('hex')}"`,
    size: received.size,
    lastModified: new Date().toISOString(),
    ...(received.checksum && { checksum: received.checksum }),
  });
  ctx.reply.header('etag', part.etag);
  if (part.checksum) ctx.reply.header(checksumHeaderName(part.checksum.algorithm), part.checksum.value);
  return ctx.reply.code(200).send();
}

/** x-amz-copy-source-range: `bytes=first-last`, both inside the source. */
function copySourceRange(ctx: S3Context, size: number): { start: number; end: number } {
  const text = requestHeader(ctx, 'x-amz-copy-source-range');
  if (text === undefined) return { start: 0, end: size - 1 };
  const match = /^bytes=(\d+)-(\d+)$/.exec(text.trim());
  const start = Number(match?.[1]);
  const end = Number(match?.[2]);
  if (!match || end < start || end >= size) {
    throw new S3Error('InvalidArgument', `Range specified is not valid for source object of size: ${size}`, {
      ArgumentName: 'x-amz-copy-source-range',
      ArgumentValue: text,
    });
  }
  return { start, end };
}

async function uploadPartCopy(ctx: S3Context, upload: UploadRecord, partNumber: number): Promise<FastifyReply> {
  const source = parseCopySource(ctx);
  const { meta, handle } = await openCopySource(ctx, source);
  const temp = ctx.objects.newTempPath();
  let copied: { size: number; md5: Buffer };
  try {
    const { start, end } = copySourceRange(ctx, meta.size);
    if (end - start + 1 > MAX_OBJECT_PUT_BYTES)
      throw new S3Error('InvalidRequest', 'The specified copy range is larger than the maximum allowable size for a part.');
    copied = await copyBytesToFile(handle, start, end, temp);
  } finally {
    await handle.close();
  }
  const part = await ctx.uploads.putPart(upload.uploadId, partNumber, temp, {
    etag: `"${copied.md5.toString('hex')}"`,
    size: copied.size,
    lastModified: new Date().toISOString(),
  });
  return sendXml(ctx, xmlDocument('CopyPartResult', [textElement('LastModified', part.lastModified), textElement('ETag', part.etag)]));
}

function partXml(part: PartRecord): string {
  return element('Part', [
    textElement('PartNumber', part.partNumber),
    textElement('LastModified', part.lastModified),
    textElement('ETag', part.etag),
    textElement('Size', part.size),
    checksumXml(part.checksum),
  ]);
}

export async function listParts(ctx: S3Context): Promise<FastifyReply> {
  assertKeyAllowed(ctx, ctx.target.key);
  const upload = await uploadFor(ctx);
  const maxParts = integerParam(ctx, 'max-parts', 1000, 1000);
  const marker = integerParam(ctx, 'part-number-marker', 0);
  const remaining = (await ctx.uploads.listParts(upload.uploadId)).filter((part) => part.partNumber > marker);
  const page = remaining.slice(0, maxParts);
  const truncated = remaining.length > page.length;
  return sendXml(
    ctx,
    xmlDocument('ListPartsResult', [
      textElement('Bucket', ctx.options.bucket),
      textElement('Key', upload.key),
      textElement('UploadId', upload.uploadId),
      textElement('PartNumberMarker', marker),
      textElement('NextPartNumberMarker', page.at(-1)?.partNumber ?? marker),
      textElement('MaxParts', maxParts),
      textElement('IsTruncated', truncated),
      ...page.map(partXml),
      element('Initiator', OWNER_XML),
      element('Owner', OWNER_XML),
      textElement('StorageClass', 'STANDARD'),
      textElement('ChecksumAlgorithm', upload.checksumAlgorithm),
      textElement('ChecksumType', upload.checksumAlgorithm ? upload.checksumType : undefined),
    ]),
  );
}

export async function abortMultipartUpload(ctx: S3Context): Promise<FastifyReply> {
  assertKeyAllowed(ctx, ctx.target.key);
  const upload = await uploadFor(ctx);
  // A completion holding the upload is turning it into an object: removing its parts now
  // would break that completion, and the upload is as good as gone. The abort holds the upload
  // too while it removes the parts, so a completion arriving meanwhile answers NoSuchUpload
  // instead of assembling parts that are being deleted (an InternalError).
  const release = ctx.uploads.claim(upload.uploadId);
  if (!release) throw new S3Error('NoSuchUpload', undefined, { UploadId: upload.uploadId });
  try {
    await ctx.uploads.remove(upload.uploadId);
  } finally {
    release();
  }
  return ctx.reply.code(204).send();
}
