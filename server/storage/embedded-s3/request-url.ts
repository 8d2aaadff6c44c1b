import { S3Error } from './s3-error.ts';

export type QueryBag = Record<string, string | string[]>;

/** What a path-style S3 request addresses, read from the raw URL as the client sent it. */
export interface S3Target {
  /** The path exactly as received (percent-encoded, mount prefix included): what the client signed. */
  rawPath: string;
  /** Decoded query parameters; repeated names become arrays. `?uploads` is { uploads: '' }. */
  query: QueryBag;
  /** Empty for service-level requests (ListBuckets). */
  bucket: string;
  /** Empty for bucket-level requests. */
  key: string;
}

const MAX_KEY_BYTES = 1024;

/**
 * Set on a raw request that reached the store through its own listener (server/storage/store-listener.ts):
 * the URL as the client sent it, from the root (`/<bucket>/<key>`), before it was routed under the mount prefix.
 */
export const STORE_ROOT_URL = Symbol.for('cutdesk.embeddedS3.rootUrl');

/** The URL the client sent and the prefix it is mounted under: the root for the store's own listener. */
export function clientAddress(rawRequest: object, url: string, mountPrefix: string): { url: string; mountPrefix: string } {
  const rootUrl = (rawRequest as { [STORE_ROOT_URL]?: string })[STORE_ROOT_URL];
  return rootUrl === undefined ? { url, mountPrefix } : { url: rootUrl, mountPrefix: '' };
}

function decodeComponent(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new S3Error('InvalidURI', "Couldn't parse the specified URI.");
  }
}

/**
 * Query values are decoded with decodeURIComponent ('+' stays '+'): the SDK encodes a space
 * as %20 and signs the value it meant, so this is the value to re-encode when verifying.
 */
export function parseQuery(rawQuery: string): QueryBag {
  const query: QueryBag = {};
  if (rawQuery === '') return query;
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1));
    const existing = query[name];
    if (existing === undefined) query[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else query[name] = [existing, value];
  }
  return query;
}

/** First value of a query parameter, or undefined when absent. */
export function queryValue(query: QueryBag, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

export function hasQuery(query: QueryBag, name: string): boolean {
  return Object.hasOwn(query, name);
}

/**
 * Splits `<mount>/<bucket>/<key>?<query>`. The key is everything after the bucket, decoded
 * once: `a/b` and `a%2Fb` name the same key, exactly as on S3.
 */
export function parseS3Target(rawUrl: string, mountPrefix: string): S3Target {
  const questionMark = rawUrl.indexOf('?');
  const rawPath = questionMark === -1 ? rawUrl : rawUrl.slice(0, questionMark);
  const rawQuery = questionMark === -1 ? '' : rawUrl.slice(questionMark + 1);
  const mount = mountPrefix.replace(/\/+$/, '');
  if (!rawPath.startsWith(mount)) throw new S3Error('InvalidURI', "Couldn't parse the specified URI.");
  const rest = rawPath.slice(mount.length).replace(/^\//, '');
  const slash = rest.indexOf('/');
  const bucket = decodeComponent(slash === -1 ? rest : rest.slice(0, slash));
  const key = slash === -1 ? '' : decodeComponent(rest.slice(slash + 1));
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError', undefined, { MaxSizeAllowed: String(MAX_KEY_BYTES) });
  return { rawPath, query: parseQuery(rawQuery), bucket, key };
}
