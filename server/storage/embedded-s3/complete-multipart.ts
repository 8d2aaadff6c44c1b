import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { crc32FromBase64, crc32OfRuns, crc32ToBase64 } from '../../../src/domain/crc32.ts';
import { checksumHeaderName, compositeChecksum, parseChecksumAlgorithm } from './checksums.ts';
import type { ChecksumAlgorithm, StoredChecksum } from './checksums.ts';
import { MAX_XML_BODY_BYTES, MIN_PART_BYTES, assertKeyAllowed, requestHeader } from './context.ts';
import type { S3Context } from './context.ts';
import { checksumXml, uploadFor } from './multipart-handlers.ts';
import type { PartRecord, UploadRecord } from './multipart.ts';
import { writeCondition } from './object-handlers.ts';
import { receiveSmallBody } from './receive-body.ts';
import { S3Error } from './s3-error.ts';
import { answerWhenDone } from './slow-answer.ts';
import { childText, parseXml, textElement, xmlRoot } from './xml.ts';

/** CompleteMultipartUpload: validate the client's part list exactly as S3 does, then assemble the object. */

function bareEtag(etag: string): string {
  return etag.trim().replace(/^"|"$/g, '');
}

interface RequestedPart {
  partNumber: number;
  etag: string;
  checksums: Partial<Record<ChecksumAlgorithm, string>>;
}

function parseCompleteRequest(body: Buffer): RequestedPart[] {
  const root = parseXml(body.toString('utf8'));
  if (root.name !== 'CompleteMultipartUpload') throw new S3Error('MalformedXML');
  const parts = root.children
    .filter((child) => child.name === 'Part')
    .map((part) => {
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
      throw new S3Error('EntityTooSmall', undefined, {
        ProposedSize: String(part.size),
        MinSizeAllowed: String(MIN_PART_BYTES),
        PartNumber: String(part.partNumber),
        ETag: part.etag,
      });
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

/**
 * The whole object's checksum from its parts': S3's composite one (the checksum of the parts'
 * checksums, `-N`), or for a FULL_OBJECT CRC32 upload the CRC-32 of every byte, combined from the
 * parts' CRCs and sizes without reading them again (issue 35). CRC32C and CRC64NVME have no
 * combine here: such an object keeps no whole checksum.
 */
function multipartChecksum(upload: UploadRecord, parts: PartRecord[]): StoredChecksum | undefined {
  const algorithm = upload.checksumAlgorithm;
  if (!algorithm) return undefined;
  const values = parts.map((part) => (part.checksum?.algorithm === algorithm ? part.checksum.value : undefined));
  if (values.some((value) => value === undefined)) return undefined;
  if (upload.checksumType === 'FULL_OBJECT') {
    if (algorithm !== 'CRC32') return undefined;
    const crcs = values.map((value) => crc32FromBase64(value!));
    if (crcs.some((crc) => crc === null)) return undefined;
    const whole = crc32OfRuns(parts.map((part, index) => ({ crc32: crcs[index]!, size: part.size })));
    return { algorithm, value: crc32ToBase64(whole), type: 'FULL_OBJECT' };
  }
  const value = compositeChecksum(algorithm, values as string[]);
  return value === null ? undefined : { algorithm, value, type: 'COMPOSITE' };
}

/** A whole-object checksum sent with the completion must be the one the parts make: else nothing is stored. */
function checkDeclaredChecksum(ctx: S3Context, checksum: StoredChecksum | undefined): void {
  if (checksum?.type !== 'FULL_OBJECT') return;
  const declared = requestHeader(ctx, checksumHeaderName(checksum.algorithm));
  if (declared !== undefined && declared !== checksum.value)
    throw new S3Error('BadDigest', `The ${checksum.algorithm} you specified did not match the calculated checksum.`);
}

export async function completeMultipartUpload(ctx: S3Context): Promise<FastifyReply> {
  const { key } = ctx.target;
  assertKeyAllowed(ctx, key);
  const upload = await uploadFor(ctx);
  // Exactly one completion of an upload runs; the others answer NoSuchUpload (404) before the
  // streamed 200 begins, as the upload is becoming an object. Claimed before anything is
  // read, and the upload looked up again once held: a completion that just finished removed it.
  const noSuchUpload = () => new S3Error('NoSuchUpload', undefined, { UploadId: upload.uploadId });
  const release = ctx.uploads.claim(upload.uploadId);
  if (!release) throw noSuchUpload();
  let parts: PartRecord[];
  let checksum: StoredChecksum | undefined;
  let condition: ReturnType<typeof writeCondition>;
  try {
    if (!(await ctx.uploads.get(upload.uploadId))) throw noSuchUpload();
    const { body } = await receiveSmallBody(ctx.body, {
      headers: ctx.request.headers,
      contentSha256: ctx.auth.contentSha256,
      maxSize: MAX_XML_BODY_BYTES,
      checksumHeadersDescribeObject: true,
    });
    parts = validateRequestedParts(upload, parseCompleteRequest(body), await ctx.uploads.listParts(upload.uploadId));
    checksum = multipartChecksum(upload, parts);
    checkDeclaredChecksum(ctx, checksum);
    condition = writeCondition(ctx);
    // Checked up front for a proper 412, and again when committing in case the key changed meanwhile.
    condition?.(await ctx.objects.head(key));
  } catch (error) {
    release();
    throw error;
  }
  return answerWhenDone(ctx, () => assembleAndCommit(ctx, upload, parts, checksum, condition).finally(release), `/${ctx.options.bucket}/${key}`);
}

async function assembleAndCommit(
  ctx: S3Context,
  upload: UploadRecord,
  parts: PartRecord[],
  checksum: StoredChecksum | undefined,
  condition: ReturnType<typeof writeCondition>,
): Promise<string> {
  const { key } = ctx.target;
  const temp = ctx.objects.newTempPath();
  // Issue 14: the parts become the object's segments by hard link, a metadata operation whatever
  // the size; copied into one file only where the file system cannot link.
  const linked = await ctx.uploads.linkParts(upload.uploadId, parts, temp);
  if (!linked) await ctx.uploads.assemble(upload.uploadId, parts, temp);
  const meta = await ctx.objects
    .commit(
      key,
      temp,
      {
        size: parts.reduce((total, part) => total + part.size, 0),
        etag: multipartEtag(parts),
        lastModified: new Date().toISOString(),
        contentType: upload.contentType,
        headers: upload.headers,
        userMetadata: upload.userMetadata,
        partsCount: parts.length,
        ...(linked && { segments: parts.map((part) => part.size) }),
        ...(checksum && { checksum }),
      },
      condition,
    )
    .catch(async (error: unknown) => {
      await rm(temp, { recursive: true, force: true });
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
}
