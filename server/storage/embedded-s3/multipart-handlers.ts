import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { checksumElementName, checksumHeaderName, compositeChecksum, parseChecksumAlgorithm } from './checksums.ts';
import type { ChecksumAlgorithm, StoredChecksum } from './checksums.ts';
import {
  MAX_OBJECT_PUT_BYTES, MAX_PART_NUMBER, MAX_XML_BODY_BYTES, MIN_PART_BYTES, OWNER_ID,
  assertKeyAllowed, requestHeader, sendXml,
} from './context.ts';
import type { S3Context } from './context.ts';
import { copyBytesToFile } from './copy-bytes.ts';
import { answerWhenDone } from './slow-answer.ts';
import type { PartRecord, UploadRecord } from './multipart.ts';
import { openCopySource, parseCopySource } from './object-handlers.ts';
import { contentTypeFrom, storedHeadersFrom, userMetadataFrom } from './object-headers.ts';
import { receiveBodyToFile, receiveSmallBody } from './receive-body.ts';
import { queryValue } from './request-url.ts';
import { S3Error } from './s3-error.ts';
import { childText, element, parseXml, textElement, xmlDocument, xmlRoot } from './xml.ts';
import { compareKeys } from './object-files.ts';

const OWNER_XML = [textElement('ID', OWNER_ID), textElement('DisplayName', OWNER_ID)];

function bareEtag(etag: string): string {
  return etag.trim().replace(/^"|"$/g, '');
}

/** A non-negative integer query parameter; S3 caps list sizes at 1000 rather than failing. */
export function integerParam(ctx: S3Context, name: string, fallback: number, max?: number): number {
  const text = queryValue(ctx.target.query, name);
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text)) throw new S3Error('InvalidArgument', `Provided ${name} not an integer or within integer range`, { ArgumentName: name, ArgumentValue: text });
  const value = Number(text);
  return max === undefined ? value : Math.min(value, max);
}

function partNumberParam(ctx: S3Context): number {
  const text = queryValue(ctx.target.query, 'partNumber') ?? '';
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= MAX_PART_NUMBER)) {
    throw new S3Error('InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive', { ArgumentName: 'partNumber', ArgumentValue: text });
  }
  return value;
}

/** The upload named by ?uploadId, which must belong to the key in the path. */
async function uploadFor(ctx: S3Context): Promise<UploadRecord> {
  const uploadId = queryValue(ctx.target.query, 'uploadId') ?? '';
  const upload = await ctx.uploads.get(uploadId);
  if (!upload || upload.key !== ctx.target.key) throw new S3Error('NoSuchUpload', undefined, { UploadId: uploadId });
  return upload;
}

function checksumXml(checksum: { algorithm: ChecksumAlgorithm; value: string } | undefined): string {
  return checksum ? textElement(checksumElementName(checksum.algorithm), checksum.value) : '';
}

export async function createMultipartUpload(ctx: S3Context): Promise<FastifyReply> {
  const { key } = ctx.target;
  assertKeyAllowed(ctx, key);
  const headers = ctx.request.headers;
  const algorithmHeader = requestHeader(ctx, 'x-amz-checksum-algorithm');
  const checksumAlgorithm = parseChecksumAlgorithm(algorithmHeader);
  if (algorithmHeader !== undefined && !checksumAlgorithm) throw new S3Error('InvalidRequest', `Checksum algorithm provided is unsupported: ${algorithmHeader}`);
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
  return sendXml(ctx, xmlDocument('InitiateMultipartUploadResult', [
    textElement('Bucket', ctx.options.bucket),
    textElement('Key', key),
    textElement('UploadId', upload.uploadId),
  ]));
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
    throw new S3Error('InvalidRequest', `Checksum Type mismatch occurred, expected checksum Type: ${upload.checksumAlgorithm.toLowerCase()}, actual checksum Type: ${received.checksum.algorithm.toLowerCase()}`);
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
    throw new S3Error('InvalidArgument', `Range specified is not valid for source object of size: ${size}`, { ArgumentName: 'x-amz-copy-source-range', ArgumentValue: text });
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
    if (end - start + 1 > MAX_OBJECT_PUT_BYTES) throw new S3Error('InvalidRequest', 'The specified copy range is larger than the maximum allowable size for a part.');
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
  return sendXml(ctx, xmlDocument('ListPartsResult', [
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
  ]));
}

interface RequestedPart {
  partNumber: number;
  etag: string;
  checksums: Partial<Record<ChecksumAlgorithm, string>>;
}

function parseCompleteRequest(body: Buffer): RequestedPart[] {
  const root = parseXml(body.toString('utf8'));
  if (root.name !== 'CompleteMultipartUpload') throw new S3Error('MalformedXML');
  const parts = root.children.filter((child) => child.name === 'Part').map((part) => {
    const partNumber = Number(childText(part, 'PartNumber'));
    const etag = childText(part, 'ETag');
    if (!Number.isInteger(partNumber) || etag === undefined) throw new S3Error('MalformedXML');
    const checksums: Partial<Record<ChecksumAlgorithm, string>> = {};
    for (const child of part.children) {
      const algorithm = child.name.startsWith('Checksum') ? parseChecksumAlgorithm(child.name.slice('Checksum'.length)) : undefined;
      if (algorithm) checksums[algorithm] = child.text;
    }
    return { partNumber, etag, checksums };
  });
  if (parts.length === 0) throw new S3Error('MalformedXML');
  return parts;
}

/** Checks the requested list against the stored parts exactly as S3 does, returning the parts to assemble. */
function validateRequestedParts(upload: UploadRecord, requested: RequestedPart[], stored: PartRecord[]): PartRecord[] {
  const byNumber = new Map(stored.map((part) => [part.partNumber, part]));
  requested.forEach((part, index) => {
    const previous = requested[index - 1];
    if (previous && part.partNumber <= previous.partNumber) throw new S3Error('InvalidPartOrder', undefined, { UploadId: upload.uploadId });
  });
  const chosen = requested.map((part) => {
    const found = byNumber.get(part.partNumber);
    const invalid = (): S3Error => new S3Error('InvalidPart', undefined, { UploadId: upload.uploadId, PartNumber: String(part.partNumber), ETag: part.etag });
    if (!found || bareEtag(found.etag) !== bareEtag(part.etag)) throw invalid();
    for (const [algorithm, value] of Object.entries(part.checksums)) {
      if (found.checksum?.algorithm !== algorithm || found.checksum.value !== value) throw invalid();
    }
    return found;
  });
  chosen.slice(0, -1).forEach((part) => {
    if (part.size < MIN_PART_BYTES) {
      throw new S3Error('EntityTooSmall', undefined, { ProposedSize: String(part.size), MinSizeAllowed: String(MIN_PART_BYTES), PartNumber: String(part.partNumber), ETag: part.etag });
    }
  });
  return chosen;
}

/** S3's multipart ETag: md5 of the concatenated binary part md5s, then `-<number of parts>`. */
function multipartEtag(parts: PartRecord[]): string {
  const md5 = createHash('md5');
  for (const part of parts) md5.update(Buffer.from(bareEtag(part.etag), 'hex'));
  return `"${md5.digest('hex')}-${parts.length}"`;
}

function multipartChecksum(upload: UploadRecord, parts: PartRecord[]): StoredChecksum | undefined {
  const algorithm = upload.checksumAlgorithm;
  if (!algorithm || upload.checksumType === 'FULL_OBJECT') return undefined;
  const values = parts.map((part) => (part.checksum?.algorithm === algorithm ? part.checksum.value : undefined));
  if (values.some((value) => value === undefined)) return undefined;
  const value = compositeChecksum(algorithm, values as string[]);
  return value === null ? undefined : { algorithm, value, type: 'COMPOSITE' };
}

export async function completeMultipartUpload(ctx: S3Context): Promise<FastifyReply> {
  const { key } = ctx.target;
  assertKeyAllowed(ctx, key);
  const upload = await uploadFor(ctx);
  const { body } = await receiveSmallBody(ctx.body, { headers: ctx.request.headers, contentSha256: ctx.auth.contentSha256, maxSize: MAX_XML_BODY_BYTES });
  const parts = validateRequestedParts(upload, parseCompleteRequest(body), await ctx.uploads.listParts(upload.uploadId));
  return answerWhenDone(ctx, async () => {
    const temp = ctx.objects.newTempPath();
    await ctx.uploads.assemble(upload.uploadId, parts, temp);
    const checksum = multipartChecksum(upload, parts);
    const meta = await ctx.objects.commit(key, temp, {
      size: parts.reduce((total, part) => total + part.size, 0),
      etag: multipartEtag(parts),
      lastModified: new Date().toISOString(),
      contentType: upload.contentType,
      headers: upload.headers,
      userMetadata: upload.userMetadata,
      partsCount: parts.length,
      ...(checksum && { checksum }),
    }).catch(async (error: unknown) => {
      await rm(temp, { force: true });
      throw error;
    });
    await ctx.uploads.remove(upload.uploadId);
    return xmlRoot('CompleteMultipartUploadResult', [
      textElement('Location', `${ctx.request.protocol}://${ctx.request.host}${ctx.target.rawPath}`),
      textElement('Bucket', ctx.options.bucket),
      textElement('Key', key),
      textElement('ETag', meta.etag),
      checksumXml(meta.checksum),
      textElement('ChecksumType', meta.checksum?.type),
    ]);
  }, `/${ctx.options.bucket}/${key}`);
}

export async function abortMultipartUpload(ctx: S3Context): Promise<FastifyReply> {
  assertKeyAllowed(ctx, ctx.target.key);
  const upload = await uploadFor(ctx);
  await ctx.uploads.remove(upload.uploadId);
  return ctx.reply.code(204).send();
}

export async function listMultipartUploads(ctx: S3Context): Promise<FastifyReply> {
  const query = ctx.target.query;
  const prefix = queryValue(query, 'prefix') ?? '';
  assertKeyAllowed(ctx, prefix);
  const delimiter = queryValue(query, 'delimiter') || undefined;
  const keyMarker = queryValue(query, 'key-marker') ?? '';
  const uploadIdMarker = queryValue(query, 'upload-id-marker') ?? '';
  const maxUploads = integerParam(ctx, 'max-uploads', 1000, 1000);

  const all = (await ctx.uploads.listUploads())
    .filter((upload) => upload.key.startsWith(prefix))
    .sort((a, b) => compareKeys(a.key, b.key) || a.initiated.localeCompare(b.initiated) || a.uploadId.localeCompare(b.uploadId));
  // After the marker: later keys, plus the marker key's uploads after upload-id-marker.
  const markerIndex = uploadIdMarker ? all.findIndex((upload) => upload.key === keyMarker && upload.uploadId === uploadIdMarker) : -1;
  const remaining = markerIndex !== -1
    ? all.slice(markerIndex + 1)
    : all.filter((upload) => keyMarker === '' || compareKeys(upload.key, keyMarker) > 0);

  const entries: Array<{ upload: UploadRecord } | { commonPrefix: string }> = [];
  const seenPrefixes = new Set<string>();
  for (const upload of remaining) {
    const cut = delimiter ? upload.key.indexOf(delimiter, prefix.length) : -1;
    if (delimiter && cut !== -1) {
      const commonPrefix = upload.key.slice(0, cut + delimiter.length);
      if (!seenPrefixes.has(commonPrefix)) entries.push({ commonPrefix });
      seenPrefixes.add(commonPrefix);
    } else {
      entries.push({ upload });
    }
  }
  const page = entries.slice(0, maxUploads);
  const truncated = entries.length > page.length;
  const last = page.at(-1);
  const nextKeyMarker = last === undefined ? undefined : 'upload' in last ? last.upload.key : last.commonPrefix;
  const nextUploadIdMarker = last !== undefined && 'upload' in last ? last.upload.uploadId : undefined;

  return sendXml(ctx, xmlDocument('ListMultipartUploadsResult', [
    textElement('Bucket', ctx.options.bucket),
    textElement('KeyMarker', keyMarker),
    textElement('UploadIdMarker', uploadIdMarker),
    textElement('NextKeyMarker', truncated ? nextKeyMarker : undefined),
    textElement('NextUploadIdMarker', truncated ? nextUploadIdMarker : undefined),
    textElement('Delimiter', delimiter),
    textElement('Prefix', prefix),
    textElement('MaxUploads', maxUploads),
    textElement('IsTruncated', truncated),
    ...page.filter((entry): entry is { upload: UploadRecord } => 'upload' in entry).map(({ upload }) => element('Upload', [
      textElement('Key', upload.key),
      textElement('UploadId', upload.uploadId),
      element('Initiator', OWNER_XML),
      element('Owner', OWNER_XML),
      textElement('StorageClass', 'STANDARD'),
      textElement('Initiated', upload.initiated),
      textElement('ChecksumAlgorithm', upload.checksumAlgorithm),
      textElement('ChecksumType', upload.checksumAlgorithm ? upload.checksumType : undefined),
    ])),
    ...page.filter((entry): entry is { commonPrefix: string } => 'commonPrefix' in entry).map(({ commonPrefix }) => element('CommonPrefixes', textElement('Prefix', commonPrefix))),
  ]));
}
