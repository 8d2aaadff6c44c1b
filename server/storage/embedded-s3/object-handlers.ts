import { rm } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { checksumHeaderName } from './checksums.ts';
import { MAX_OBJECT_PUT_BYTES, assertKeyAllowed, requestHeader, sendXml } from './context.ts';
import type { S3Context } from './context.ts';
import { copyBytesToFile } from './copy-bytes.ts';
import { contentTypeFrom, presentSafely, setObjectHeaders, storedHeadersFrom, userMetadataFrom } from './object-headers.ts';
import { READ_CHUNK_BYTES, type NewObject, type ObjectMeta, type OpenedObject } from './object-files.ts';
import { evaluatePreconditions, writePrecondition } from './preconditions.ts';
import { contentRange, parseRange } from './range.ts';
import { receiveBodyToFile } from './receive-body.ts';
import { hasQuery, queryValue } from './request-url.ts';
import { S3Error } from './s3-error.ts';
import { textElement, xmlDocument } from './xml.ts';

/** Query parameters of GetObject that override answer headers (used by presigned downloads). */
const RESPONSE_OVERRIDES = {
  'response-cache-control': 'cache-control',
  'response-content-disposition': 'content-disposition',
  'response-content-encoding': 'content-encoding',
  'response-content-language': 'content-language',
  'response-content-type': 'content-type',
  'response-expires': 'expires',
} as const;

/** This store keeps one version per key: only the null version id S3 uses for unversioned buckets exists. */
export function assertNoVersionId(ctx: S3Context): void {
  const versionId = queryValue(ctx.target.query, 'versionId');
  if (versionId !== undefined && versionId !== 'null')
    throw new S3Error('InvalidArgument', 'Invalid version id specified', { ArgumentName: 'versionId', ArgumentValue: versionId });
}

/** If-None-Match / If-Match of a write, checked against the current object when the write commits. */
export function writeCondition(ctx: S3Context): ((current: ObjectMeta | null) => void) | undefined {
  const allows = writePrecondition(ctx.request.headers);
  const createOnly = ctx.auth.principal.uploadOnly === true;
  if (!allows && !createOnly) return undefined;
  return (current) => {
    // Checked at commit too: an upload cannot replace an object registered meanwhile.
    if (createOnly && current !== null)
      throw new S3Error('PreconditionFailed', 'Upload credentials cannot replace an existing object.', { Condition: 'If-None-Match' });
    if (allows && !allows(current)) throw new S3Error('PreconditionFailed', undefined, { Condition: current === null ? 'If-Match' : 'If-None-Match' });
  };
}

export async function putObject(ctx: S3Context): Promise<FastifyReply> {
  const { key } = ctx.target;
  assertKeyAllowed(ctx, key);
  const headers = ctx.request.headers;
  const described = { contentType: contentTypeFrom(headers), headers: storedHeadersFrom(headers), userMetadata: userMetadataFrom(headers) };
  const temp = ctx.objects.newTempPath();
  const received = await receiveBodyToFile(ctx.body, temp, { headers, contentSha256: ctx.auth.contentSha256, maxSize: MAX_OBJECT_PUT_BYTES });
  const object: NewObject = {
    ...described,
    size: received.size,
    etag: `"${received.md5.toString('hex')}"`,
    lastModified: new Date().toISOString(),
    ...(received.checksum && { checksum: { ...received.checksum, type: 'FULL_OBJECT' as const } }),
  };
  const meta = await ctx.objects.commit(key, temp, object, writeCondition(ctx)).catch(async (error: unknown) => {
    await rm(temp, { force: true });
    throw error;
  });
  ctx.reply.header('etag', meta.etag);
  if (meta.checksum) {
    ctx.reply.header(checksumHeaderName(meta.checksum.algorithm), meta.checksum.value);
    ctx.reply.header('x-amz-checksum-type', meta.checksum.type);
  }
  return ctx.reply.code(200).send();
}

async function openForRead(ctx: S3Context, key: string): Promise<OpenedObject> {
  const opened = await ctx.objects.open(key);
  if (!opened) throw new S3Error('NoSuchKey', undefined, { Key: key });
  return opened;
}

/** GetObject and HeadObject: the same answer, HEAD without the body. */
export async function getObject(ctx: S3Context, headOnly: boolean): Promise<FastifyReply> {
  const { key, query } = ctx.target;
  assertKeyAllowed(ctx, key);
  assertNoVersionId(ctx);
  if (hasQuery(query, 'partNumber')) throw new S3Error('NotImplemented', 'GET with partNumber is not supported by this endpoint.');
  const { meta, handle } = await openForRead(ctx, key);
  let streaming = false;
  try {
    const reply = ctx.reply;
    const outcome = evaluatePreconditions(ctx.request.headers, { etag: meta.etag, lastModified: new Date(meta.lastModified) });
    if (outcome === 'precondition-failed') throw new S3Error('PreconditionFailed', undefined, { Condition: 'If-Match' });
    if (outcome === 'not-modified') {
      reply.header('etag', meta.etag).header('last-modified', new Date(meta.lastModified).toUTCString());
      return reply.code(304).send();
    }
    const range = parseRange(requestHeader(ctx, 'range'), meta.size);
    if (range.kind === 'unsatisfiable') {
      throw new S3Error(
        'InvalidRange',
        undefined,
        { RangeRequested: requestHeader(ctx, 'range') ?? '', ActualObjectSize: String(meta.size) },
        { 'content-range': `bytes */${meta.size}` },
      );
    }
    const checksumMode = (requestHeader(ctx, 'x-amz-checksum-mode') ?? queryValue(query, 'x-amz-checksum-mode'))?.toUpperCase() === 'ENABLED';
    setObjectHeaders(reply, meta, checksumMode && range.kind === 'whole');
    for (const [parameter, headerName] of Object.entries(RESPONSE_OVERRIDES)) {
      const value = queryValue(query, parameter);
      if (value !== undefined) reply.header(headerName, value);
    }
    presentSafely(reply);
    const start = range.kind === 'partial' ? range.start : 0;
    const end = range.kind === 'partial' ? range.end : meta.size - 1;
    const length = end - start + 1;
    if (range.kind === 'partial') reply.code(206).header('content-range', contentRange(start, end, meta.size));
    reply.header('content-length', String(length));
    if (headOnly || length === 0) return reply.send();
    streaming = true;
    return reply.send(handle.createReadStream({ start, end, autoClose: true, highWaterMark: READ_CHUNK_BYTES }));
  } finally {
    if (!streaming) await handle.close();
  }
}

export async function deleteObject(ctx: S3Context): Promise<FastifyReply> {
  assertKeyAllowed(ctx, ctx.target.key);
  assertNoVersionId(ctx);
  await ctx.objects.remove(ctx.target.key);
  return ctx.reply.code(204).send();
}

export interface CopySource {
  bucket: string;
  key: string;
}

/** x-amz-copy-source: `[/]bucket/key[?versionId=...]`, URL-encoded. */
export function parseCopySource(ctx: S3Context): CopySource {
  const raw = requestHeader(ctx, 'x-amz-copy-source') ?? '';
  const [path = '', versionQuery] = raw.split('?versionId=');
  if (versionQuery !== undefined && versionQuery !== 'null') throw new S3Error('InvalidArgument', 'Invalid version id specified');
  let decoded: string;
  try {
    decoded = decodeURIComponent(path).replace(/^\//, '');
  } catch {
    throw new S3Error('InvalidArgument', 'Invalid copy source encoding', { ArgumentName: 'x-amz-copy-source' });
  }
  const slash = decoded.indexOf('/');
  if (slash <= 0 || slash === decoded.length - 1) {
    throw new S3Error('InvalidArgument', 'Copy Source must mention the source bucket and key: sourcebucket/sourcekey', { ArgumentName: 'x-amz-copy-source' });
  }
  const source = { bucket: decoded.slice(0, slash), key: decoded.slice(slash + 1) };
  if (source.bucket !== ctx.options.bucket) throw new S3Error('NoSuchBucket', undefined, { BucketName: source.bucket });
  assertKeyAllowed(ctx, source.key);
  return source;
}

/** Opens a copy source and applies x-amz-copy-source-if-* (each failure is 412 on copies). */
export async function openCopySource(ctx: S3Context, source: CopySource): Promise<OpenedObject> {
  const opened = await openForRead(ctx, source.key);
  const outcome = evaluatePreconditions(
    ctx.request.headers,
    { etag: opened.meta.etag, lastModified: new Date(opened.meta.lastModified) },
    'x-amz-copy-source-',
  );
  if (outcome !== 'proceed') {
    await opened.handle.close();
    throw new S3Error('PreconditionFailed', undefined, { Condition: 'x-amz-copy-source-If' });
  }
  return opened;
}

export async function copyObject(ctx: S3Context): Promise<FastifyReply> {
  const { key } = ctx.target;
  assertKeyAllowed(ctx, key);
  const source = parseCopySource(ctx);
  const directive = (requestHeader(ctx, 'x-amz-metadata-directive') ?? 'COPY').toUpperCase();
  if (directive !== 'COPY' && directive !== 'REPLACE')
    throw new S3Error('InvalidArgument', 'Unknown metadata directive.', { ArgumentName: 'x-amz-metadata-directive' });
  if (source.key === key && directive === 'COPY') {
    throw new S3Error(
      'InvalidRequest',
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
    );
  }
  const replaced =
    directive === 'REPLACE'
      ? {
          contentType: contentTypeFrom(ctx.request.headers),
          headers: storedHeadersFrom(ctx.request.headers),
          userMetadata: userMetadataFrom(ctx.request.headers),
        }
      : undefined;
  const { meta: sourceMeta, handle } = await openCopySource(ctx, source);
  const temp = ctx.objects.newTempPath();
  let copied: { size: number; md5: Buffer };
  try {
    if (sourceMeta.size > MAX_OBJECT_PUT_BYTES) {
      throw new S3Error('InvalidRequest', `The specified copy source is larger than the maximum allowable size for a copy source: ${MAX_OBJECT_PUT_BYTES}`);
    }
    copied = await copyBytesToFile(handle, 0, sourceMeta.size - 1, temp);
  } finally {
    await handle.close();
  }
  const object: NewObject = {
    contentType: replaced?.contentType ?? sourceMeta.contentType,
    headers: replaced?.headers ?? sourceMeta.headers,
    userMetadata: replaced?.userMetadata ?? sourceMeta.userMetadata,
    size: copied.size,
    etag: `"${copied.md5.toString('hex')}"`,
    lastModified: new Date().toISOString(),
    // A full-object checksum still describes the same bytes; a composite one described the source's parts.
    ...(sourceMeta.checksum?.type === 'FULL_OBJECT' && { checksum: sourceMeta.checksum }),
  };
  const meta = await ctx.objects.commit(key, temp, object).catch(async (error: unknown) => {
    await rm(temp, { force: true });
    throw error;
  });
  return sendXml(ctx, xmlDocument('CopyObjectResult', [textElement('LastModified', meta.lastModified), textElement('ETag', meta.etag)]));
}
