import type { IncomingHttpHeaders } from 'node:http';

/**
 * Conditional requests in the order RFC 9110 §13.2.2 evaluates them (S3 follows it):
 * If-Match, else If-Unmodified-Since → 412; If-None-Match, else If-Modified-Since → 304.
 * CopyObject uses the same rules on x-amz-copy-source-if-*, where both outcomes are 412.
 */
export type PreconditionOutcome = 'proceed' | 'precondition-failed' | 'not-modified';

interface Validators {
  etag: string;
  lastModified: Date;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function etagListMatches(list: string, etag: string): boolean {
  const bare = etag.replace(/^"|"$/g, '');
  return list.split(',').some((item) => {
    const candidate = item.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
    return candidate === '*' || candidate === bare;
  });
}

/** Seconds resolution: Last-Modified is sent as an HTTP date, which has no milliseconds. */
function modifiedAfter(lastModified: Date, dateHeader: string): boolean | undefined {
  const since = Date.parse(dateHeader);
  if (Number.isNaN(since)) return undefined;
  return Math.floor(lastModified.getTime() / 1000) > Math.floor(since / 1000);
}

export function evaluatePreconditions(headers: IncomingHttpHeaders, object: Validators, prefix = ''): PreconditionOutcome {
  const ifMatch = header(headers, `${prefix}if-match`);
  const ifUnmodifiedSince = header(headers, `${prefix}if-unmodified-since`);
  const ifNoneMatch = header(headers, `${prefix}if-none-match`);
  const ifModifiedSince = header(headers, `${prefix}if-modified-since`);
  if (ifMatch !== undefined) {
    if (!etagListMatches(ifMatch, object.etag)) return 'precondition-failed';
  } else if (ifUnmodifiedSince !== undefined && modifiedAfter(object.lastModified, ifUnmodifiedSince) === true) {
    return 'precondition-failed';
  }
  if (ifNoneMatch !== undefined) {
    if (etagListMatches(ifNoneMatch, object.etag)) return 'not-modified';
  } else if (ifModifiedSince !== undefined && modifiedAfter(object.lastModified, ifModifiedSince) === false) {
    return 'not-modified';
  }
  return 'proceed';
}

/**
 * Conditional writes (PutObject, CompleteMultipartUpload): `If-None-Match: *` refuses to
 * overwrite, `If-Match: <etag>` writes only over that version. Both fail with 412.
 */
export function writePrecondition(headers: IncomingHttpHeaders): ((current: { etag: string } | null) => boolean) | undefined {
  const ifNoneMatch = header(headers, 'if-none-match')?.trim();
  const ifMatch = header(headers, 'if-match');
  if (ifNoneMatch === undefined && ifMatch === undefined) return undefined;
  return (current) => {
    if (ifNoneMatch === '*' && current !== null) return false;
    if (ifMatch !== undefined && (current === null || !etagListMatches(ifMatch, current.etag))) return false;
    return true;
  };
}
