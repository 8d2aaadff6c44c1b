import type { FastifyReply } from 'fastify';
import { OWNER_XML, assertKeyAllowed, integerParam, sendXml } from './context.ts';
import type { S3Context } from './context.ts';
import type { UploadRecord } from './multipart.ts';
import { compareKeys } from './object-files.ts';
import { queryValue } from './request-url.ts';
import { element, textElement, xmlDocument } from './xml.ts';

/** ListMultipartUploads: the uploads in progress with their Initiated dates, for the cleanup of abandoned ones. */

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
  const remaining = markerIndex !== -1 ? all.slice(markerIndex + 1) : all.filter((upload) => keyMarker === '' || compareKeys(upload.key, keyMarker) > 0);

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

  return sendXml(
    ctx,
    xmlDocument('ListMultipartUploadsResult', [
      textElement('Bucket', ctx.options.bucket),
      textElement('KeyMarker', keyMarker),
      textElement('UploadIdMarker', uploadIdMarker),
      textElement('NextKeyMarker', truncated ? nextKeyMarker : undefined),
      textElement('NextUploadIdMarker', truncated ? nextUploadIdMarker : undefined),
      textElement('Delimiter', delimiter),
      textElement('Prefix', prefix),
      textElement('MaxUploads', maxUploads),
      textElement('IsTruncated', truncated),
      ...page
        .filter((entry): entry is { upload: UploadRecord } => 'upload' in entry)
        .map(({ upload }) =>
          element('Upload', [
            textElement('Key', upload.key),
            textElement('UploadId', upload.uploadId),
            element('Initiator', OWNER_XML),
            element('Owner', OWNER_XML),
            textElement('StorageClass', 'STANDARD'),
            textElement('Initiated', upload.initiated),
            textElement('ChecksumAlgorithm', upload.checksumAlgorithm),
            textElement('ChecksumType', upload.checksumAlgorithm ? upload.checksumType : undefined),
          ]),
        ),
      ...page
        .filter((entry): entry is { commonPrefix: string } => 'commonPrefix' in entry)
        .map(({ commonPrefix }) => element('CommonPrefixes', textElement('Prefix', commonPrefix))),
    ]),
  );
}
