import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { servedDisposition, servedType } from '../../../src/domain/served-content.ts';
import { checksumHeaderName } from './checksums.ts';
import type { ObjectMeta } from './object-files.ts';
import { S3Error } from './s3-error.ts';

/** Representation headers S3 stores with an object and sends back on GET/HEAD. */
const STORED_HEADERS = ['cache-control', 'content-disposition', 'content-encoding', 'content-language', 'expires'] as const;
const META_PREFIX = 'x-amz-meta-';
/** S3 limits user metadata to 2 KB (names plus values). */
const MAX_USER_METADATA_BYTES = 2048;
/** S3's type for objects stored without one. */
export const DEFAULT_CONTENT_TYPE = 'binary/octet-stream';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

export function contentTypeFrom(headers: IncomingHttpHeaders): string {
  return header(headers, 'content-type') ?? DEFAULT_CONTENT_TYPE;
}

export function storedHeadersFrom(headers: IncomingHttpHeaders): Record<string, string> {
  const stored: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    let value = header(headers, name);
    // aws-chunked describes the transfer, not the object: S3 drops it.
    if (name === 'content-encoding' && value !== undefined) {
      value = value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '' && part !== 'aws-chunked')
        .join(',');
      if (value === '') value = undefined;
    }
    if (value !== undefined) stored[name] = value;
  }
  return stored;
}

export function userMetadataFrom(headers: IncomingHttpHeaders): Record<string, string> {
  const metadata: Record<string, string> = {};
  let bytes = 0;
  for (const [name, raw] of Object.entries(headers)) {
    if (!name.startsWith(META_PREFIX) || raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    const shortName = name.slice(META_PREFIX.length);
    metadata[shortName] = value;
    bytes += Buffer.byteLength(shortName) + Buffer.byteLength(value);
  }
  if (bytes > MAX_USER_METADATA_BYTES) {
    throw new S3Error('MetadataTooLarge', 'Your metadata headers exceed the maximum allowed metadata size.', {
      Size: String(bytes),
      MaxSizeAllowed: String(MAX_USER_METADATA_BYTES),
    });
  }
  return metadata;
}

/** Headers describing an object on GET/HEAD; `withChecksum` when the client asked for x-amz-checksum-mode. */
export function setObjectHeaders(reply: FastifyReply, meta: ObjectMeta, withChecksum: boolean): void {
  reply.header('etag', meta.etag);
  reply.header('last-modified', new Date(meta.lastModified).toUTCString());
  reply.header('content-type', meta.contentType);
  reply.header('accept-ranges', 'bytes');
  for (const [name, value] of Object.entries(meta.headers)) reply.header(name, value);
  for (const [name, value] of Object.entries(meta.userMetadata)) reply.header(`${META_PREFIX}${name}`, value);
  if (withChecksum && meta.checksum) {
    reply.header(checksumHeaderName(meta.checksum.algorithm), meta.checksum.value);
    reply.header('x-amz-checksum-type', meta.checksum.type);
  }
}

/**
 * The last word on how an object is presented (issue 9), after the stored headers and the
 * request's response-* overrides: never an active type (HTML, SVG, XML, script become an
 * opaque download), and an attachment unless the type is one the player or a page shows in
 * place. Customers choose the stored type; this store answers on the app's own origin.
 */
export function presentSafely(reply: FastifyReply): void {
  const type = servedType(String(reply.getHeader('content-type') ?? ''));
  reply.header('content-type', type);
  const requested = reply.getHeader('content-disposition');
  const disposition = servedDisposition(type, requested === undefined ? undefined : String(requested));
  if (disposition === undefined) reply.removeHeader('content-disposition');
  else reply.header('content-disposition', disposition);
}
