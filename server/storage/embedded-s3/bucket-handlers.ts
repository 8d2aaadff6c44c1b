import { stat } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { CHECKSUM_ALGORITHMS, checksumHeaderName } from './checksums.ts';
import { MAX_XML_BODY_BYTES, OWNER_XML, assertKeyAllowed, assertUnrestricted, integerParam, isKeyAllowed, requestHeader, sendXml } from './context.ts';
import type { S3Context } from './context.ts';
import { compareKeys } from './object-files.ts';
import type { ObjectMeta } from './object-files.ts';
import { receiveSmallBody } from './receive-body.ts';
import { queryValue } from './request-url.ts';
import { S3Error } from './s3-error.ts';
import { childText, element, parseXml, textElement, xmlDocument } from './xml.ts';

const MAX_DELETE_KEYS = 1000;

type ListEntry = { name: string; object: ObjectMeta } | { name: string; commonPrefix: true };

function encodingTypeParam(ctx: S3Context): 'url' | undefined {
  const value = queryValue(ctx.target.query, 'encoding-type');
  if (value === undefined) return undefined;
  if (value !== 'url')
    throw new S3Error('InvalidArgument', 'Invalid Encoding Method specified in Request', { ArgumentName: 'encoding-type', ArgumentValue: value });
  return 'url';
}

/** ListObjects (v1) and ListObjectsV2: one listing, two ways to page through it. */
export async function listObjects(ctx: S3Context, version: 1 | 2): Promise<FastifyReply> {
  const query = ctx.target.query;
  const prefix = queryValue(query, 'prefix') ?? '';
  assertKeyAllowed(ctx, prefix);
  const delimiter = queryValue(query, 'delimiter') || undefined;
  const maxKeys = integerParam(ctx, 'max-keys', 1000, 1000);
  const encodingType = encodingTypeParam(ctx);
  const encode = (value: string): string => (encodingType === 'url' ? encodeURIComponent(value).replace(/%2F/g, '/') : value);

  const continuationToken = version === 2 ? queryValue(query, 'continuation-token') : undefined;
  let marker: string | undefined;
  if (continuationToken !== undefined) {
    marker = Buffer.from(continuationToken, 'base64url').toString('utf8');
    if (continuationToken === '' || Buffer.from(marker).toString('base64url') !== continuationToken) {
      throw new S3Error('InvalidArgument', 'The continuation token provided is incorrect', { ArgumentName: 'continuation-token' });
    }
  } else {
    marker = queryValue(query, version === 2 ? 'start-after' : 'marker') || undefined;
  }

  const listing = await ctx.objects.list(prefix, delimiter);
  const entries: ListEntry[] = [
    ...listing.objects.map((object) => ({ name: object.key, object })),
    ...listing.commonPrefixes.map((name) => ({ name, commonPrefix: true as const })),
  ].sort((a, b) => compareKeys(a.name, b.name));
  const remaining = marker === undefined ? entries : entries.filter((entry) => compareKeys(entry.name, marker) > 0);
  const page = remaining.slice(0, maxKeys);
  const truncated = maxKeys > 0 && remaining.length > page.length;
  const lastName = page.at(-1)?.name;
  const withOwner = version === 1 || queryValue(query, 'fetch-owner') === 'true';

  const contents = page
    .flatMap((entry) => ('object' in entry ? [entry.object] : []))
    .map((object) =>
      element('Contents', [
        textElement('Key', encode(object.key)),
        textElement('LastModified', object.lastModified),
        textElement('ETag', object.etag),
        textElement('ChecksumAlgorithm', object.checksum?.algorithm),
        textElement('ChecksumType', object.checksum?.type),
        textElement('Size', object.size),
        textElement('StorageClass', 'STANDARD'),
        withOwner ? element('Owner', OWNER_XML) : '',
      ]),
    );
  const commonPrefixes = page.filter((entry) => 'commonPrefix' in entry).map((entry) => element('CommonPrefixes', textElement('Prefix', encode(entry.name))));

  const paging =
    version === 2
      ? [
          textElement('KeyCount', page.length),
          textElement('ContinuationToken', continuationToken),
          textElement('NextContinuationToken', truncated && lastName !== undefined ? Buffer.from(lastName).toString('base64url') : undefined),
          textElement('StartAfter', queryValue(query, 'start-after') !== undefined ? encode(queryValue(query, 'start-after') ?? '') : undefined),
        ]
      : [
          textElement('Marker', encode(queryValue(query, 'marker') ?? '')),
          textElement('NextMarker', truncated && lastName !== undefined ? encode(lastName) : undefined),
        ];
  return sendXml(
    ctx,
    xmlDocument('ListBucketResult', [
      textElement('Name', ctx.options.bucket),
      textElement('Prefix', encode(prefix)),
      textElement('Delimiter', delimiter === undefined ? undefined : encode(delimiter)),
      textElement('MaxKeys', maxKeys),
      textElement('EncodingType', encodingType),
      textElement('IsTruncated', truncated),
      ...paging,
      ...contents,
      ...commonPrefixes,
    ]),
  );
}

/** S3 requires an integrity header on DeleteObjects so a damaged key list cannot delete the wrong objects. */
function assertIntegrityHeader(ctx: S3Context): void {
  const has =
    requestHeader(ctx, 'content-md5') !== undefined ||
    requestHeader(ctx, 'x-amz-trailer') !== undefined ||
    CHECKSUM_ALGORITHMS.some((algorithm) => requestHeader(ctx, checksumHeaderName(algorithm)) !== undefined);
  if (!has) throw new S3Error('InvalidRequest', 'Missing required header for this request: Content-MD5');
}

export async function deleteObjects(ctx: S3Context): Promise<FastifyReply> {
  assertIntegrityHeader(ctx);
  const { body } = await receiveSmallBody(ctx.body, { headers: ctx.request.headers, contentSha256: ctx.auth.contentSha256, maxSize: MAX_XML_BODY_BYTES });
  const root = parseXml(body.toString('utf8'));
  if (root.name !== 'Delete') throw new S3Error('MalformedXML');
  const quiet = childText(root, 'Quiet')?.trim().toLowerCase() === 'true';
  const requested = root.children
    .filter((child) => child.name === 'Object')
    .map((object) => {
      const key = childText(object, 'Key');
      if (key === undefined) throw new S3Error('MalformedXML');
      return { key, versionId: childText(object, 'VersionId') };
    });
  if (requested.length === 0 || requested.length > MAX_DELETE_KEYS) throw new S3Error('MalformedXML');

  const results: string[] = [];
  for (const { key, versionId } of requested) {
    // Like S3 under an IAM policy: a key the caller may not touch fails alone, the others proceed.
    if (!isKeyAllowed(ctx, key)) {
      results.push(element('Error', [textElement('Key', key), textElement('Code', 'AccessDenied'), textElement('Message', 'Access Denied')]));
      continue;
    }
    if (versionId !== undefined && versionId !== 'null') {
      results.push(
        element('Error', [
          textElement('Key', key),
          textElement('VersionId', versionId),
          textElement('Code', 'NoSuchVersion'),
          textElement('Message', 'The specified version does not exist.'),
        ]),
      );
      continue;
    }
    await ctx.objects.remove(key);
    if (!quiet) results.push(element('Deleted', textElement('Key', key)));
  }
  return sendXml(ctx, xmlDocument('DeleteResult', results));
}

export async function headBucket(ctx: S3Context): Promise<FastifyReply> {
  assertUnrestricted(ctx);
  return ctx.reply.code(200).header('x-amz-bucket-region', ctx.options.region).send();
}

/** The bucket always exists here; creating it again is the idempotent success us-east-1 answers. */
export async function createBucket(ctx: S3Context): Promise<FastifyReply> {
  assertUnrestricted(ctx);
  return ctx.reply.code(200).header('location', `/${ctx.options.bucket}`).send();
}

export async function getBucketLocation(ctx: S3Context): Promise<FastifyReply> {
  assertUnrestricted(ctx);
  const region = ctx.options.region === 'us-east-1' ? '' : ctx.options.region;
  return sendXml(
    ctx,
    `<?xml version="1.0" encoding="UTF-8"?>\n<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${region}</LocationConstraint>`,
  );
}

export async function listBuckets(ctx: S3Context, bucketDir: string): Promise<FastifyReply> {
  assertUnrestricted(ctx);
  const created = await stat(bucketDir);
  return sendXml(
    ctx,
    xmlDocument('ListAllMyBucketsResult', [
      element('Owner', OWNER_XML),
      element('Buckets', element('Bucket', [textElement('Name', ctx.options.bucket), textElement('CreationDate', created.birthtime.toISOString())])),
    ]),
  );
}
