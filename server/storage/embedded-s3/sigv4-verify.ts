import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { QueryBag } from './request-url.ts';
import { queryValue } from './request-url.ts';
import { S3Error } from './s3-error.ts';
import type { CredentialResolver, S3Principal } from './types.ts';

/**
 * SigV4 verification by re-signing: the received method, path, query and signed headers are
 * handed to the SDK's own signer with the principal's secret, and its signature is compared
 * with the one received. Whatever the SDK does when signing, verification does identically.
 */

export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
export const STREAMING_UNSIGNED_PAYLOAD_TRAILER = 'STREAMING-UNSIGNED-PAYLOAD-TRAILER';

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 's3';
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
const MAX_PRESIGNED_EXPIRES_SECONDS = 7 * 24 * 60 * 60;
const SHA256_HEADER = 'x-amz-content-sha256';
const TOKEN_HEADER = 'x-amz-security-token';

export interface SignedRequest {
  method: string;
  /** Path as received, percent-encoded, mount prefix included. */
  rawPath: string;
  query: QueryBag;
  headers: IncomingHttpHeaders;
}

export interface Authenticated {
  accessKeyId: string;
  principal: S3Principal;
  /** x-amz-content-sha256 as sent (UNSIGNED-PAYLOAD for presigned URLs): how to check the body. */
  contentSha256: string;
  presigned: boolean;
}

export interface VerifyOptions {
  region: string;
  credentials: CredentialResolver;
  now?: Date;
}

interface Credential {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

type FormatError = 'AuthorizationHeaderMalformed' | 'AuthorizationQueryParametersError';

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function parseCredential(value: string, region: string, errorCode: FormatError): Credential {
  const parts = value.split('/');
  if (parts.length < 5 || parts[parts.length - 1] !== 'aws4_request') {
    throw new S3Error(errorCode, `The credential '${value}' is malformed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".`);
  }
  const [date = '', credentialRegion = '', service = ''] = parts.slice(-4);
  const credential = { accessKeyId: parts.slice(0, -4).join('/'), date, region: credentialRegion, service };
  if (credential.region !== region) {
    throw new S3Error(errorCode, `The authorization header is malformed; the region '${credential.region}' is wrong; expecting '${region}'`, {
      Region: region,
    });
  }
  if (credential.service !== SERVICE) {
    throw new S3Error(errorCode, `The authorization header is malformed; incorrect service "${credential.service}". This endpoint belongs to "s3".`);
  }
  return credential;
}

/** `20261121T094733Z` → Date, or null when it is not that shape. */
function parseAmzDate(value: string | undefined): Date | null {
  const match = value === undefined ? null : /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const date = new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 0, h ?? 0, mi ?? 0, s ?? 0));
  return Number.isNaN(date.getTime()) ? null : date;
}

function sameSecret(received: string, expected: string): boolean {
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** AWS's UriEncode: everything but unreserved characters, as the SDK encodes key segments. */
function awsUriEncode(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The SDK signs the path exactly as it sends it. Other clients may send a looser encoding
 * (e.g. a literal `!`) but sign the canonical one, so that form is tried second.
 */
function canonicalPathCandidates(rawPath: string): string[] {
  let normalized: string;
  try {
    normalized = rawPath
      .split('/')
      .map((segment) => awsUriEncode(decodeURIComponent(segment)))
      .join('/');
  } catch {
    return [rawPath];
  }
  return normalized === rawPath ? [rawPath] : [rawPath, normalized];
}

function createSigner(accessKeyId: string, principal: S3Principal, region: string): SignatureV4 {
  return new SignatureV4({
    credentials: { accessKeyId, secretAccessKey: principal.secretAccessKey },
    region,
    service: SERVICE,
    sha256: Hash.bind(null, 'sha256'),
    // S3 is the one service whose canonical path is the path as sent, not re-escaped.
    uriEscapePath: false,
    applyChecksum: false,
  });
}

/** The signed headers as received; x-amz-content-sha256 rides along unsigned so the signer uses it as the payload hash. */
function signedHeaderBag(headers: IncomingHttpHeaders, signedHeaders: string[], payloadHash: string): Record<string, string> {
  const bag: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = headerValue(headers, name);
    if (value !== undefined) bag[name] = value;
  }
  if (!signedHeaders.includes(SHA256_HEADER)) bag[SHA256_HEADER] = payloadHash;
  return bag;
}

function assertAmzHeadersSigned(headers: IncomingHttpHeaders, signedHeaders: string[]): void {
  const unsigned = Object.keys(headers).filter((name) => name.startsWith('x-amz-') && !signedHeaders.includes(name));
  if (unsigned.length > 0) {
    throw new S3Error('AccessDenied', 'There were headers present in the request which were not signed', {
      HeadersNotSigned: unsigned.join(', '),
    });
  }
}

async function lookupPrincipal(accessKeyId: string, credentials: CredentialResolver): Promise<S3Principal> {
  const principal = await credentials.lookup(accessKeyId);
  if (!principal) throw new S3Error('InvalidAccessKeyId', undefined, { AWSAccessKeyId: accessKeyId });
  return principal;
}

/** Checks done once the signature proved the caller holds the secret. */
function assertPrincipalUsable(principal: S3Principal, receivedToken: string | undefined, now: Date): void {
  if (principal.expiresAt && principal.expiresAt.getTime() <= now.getTime()) throw new S3Error('ExpiredToken');
  if (principal.sessionToken === undefined) {
    if (receivedToken !== undefined) throw new S3Error('InvalidToken');
    return;
  }
  // Temporary credentials without their token are unknown credentials, as on S3.
  if (receivedToken === undefined) throw new S3Error('InvalidAccessKeyId');
  if (!sameSecret(receivedToken, principal.sessionToken)) throw new S3Error('InvalidToken');
}

async function signatureMatches(compute: (path: string) => Promise<string | undefined>, rawPath: string, received: string): Promise<boolean> {
  for (const path of canonicalPathCandidates(rawPath)) {
    const expected = await compute(path);
    if (expected !== undefined && sameSecret(received.toLowerCase(), expected)) return true;
  }
  return false;
}

function parseAuthorizationHeader(value: string): { credential: string; signedHeaders: string[]; signature: string } {
  const fields = new Map<string, string>();
  for (const part of value.slice(ALGORITHM.length).split(',')) {
    const eq = part.indexOf('=');
    if (eq !== -1) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = fields.get('Credential');
  const signedHeaders = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (!credential || !signedHeaders || !signature) {
    throw new S3Error('AuthorizationHeaderMalformed', 'The authorization header is malformed; it must contain Credential, SignedHeaders and Signature.');
  }
  return { credential, signedHeaders: signedHeaders.toLowerCase().split(';'), signature };
}

function assertPayloadHashValue(value: string): void {
  if (value === UNSIGNED_PAYLOAD || value === STREAMING_UNSIGNED_PAYLOAD_TRAILER || /^[0-9a-f]{64}$/.test(value)) return;
  if (value.startsWith('STREAMING-')) {
    throw new S3Error(
      'NotImplemented',
      `x-amz-content-sha256 ${value} (signed chunks) is not supported; use ${STREAMING_UNSIGNED_PAYLOAD_TRAILER} or UNSIGNED-PAYLOAD.`,
    );
  }
  throw new S3Error('InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, or a valid sha256 value.');
}

async function verifyHeaderAuth(request: SignedRequest, authorization: string, options: VerifyOptions, now: Date): Promise<Authenticated> {
  const { credential: credentialValue, signedHeaders, signature } = parseAuthorizationHeader(authorization);
  const credential = parseCredential(credentialValue, options.region, 'AuthorizationHeaderMalformed');
  const amzDateHeader = headerValue(request.headers, 'x-amz-date');
  const signingDate = parseAmzDate(amzDateHeader);
  if (!signingDate) throw new S3Error('AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  if (amzDateHeader?.slice(0, 8) !== credential.date) {
    throw new S3Error('AuthorizationHeaderMalformed', 'Invalid credential date. Date is not the same as X-Amz-Date.');
  }
  if (Math.abs(now.getTime() - signingDate.getTime()) > MAX_CLOCK_SKEW_MS) {
    throw new S3Error('RequestTimeTooSkewed', undefined, { RequestTime: amzDateHeader, ServerTime: now.toISOString() });
  }
  const contentSha256 = headerValue(request.headers, SHA256_HEADER);
  if (contentSha256 === undefined) throw new S3Error('InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  assertPayloadHashValue(contentSha256);
  assertAmzHeadersSigned(request.headers, signedHeaders);

  const principal = await lookupPrincipal(credential.accessKeyId, options.credentials);
  const signer = createSigner(credential.accessKeyId, principal, options.region);
  const headers = signedHeaderBag(request.headers, signedHeaders, contentSha256);
  const matches = await signatureMatches(
    async (path) => {
      const signed = await signer.sign(
        new HttpRequest({ method: request.method, protocol: 'http:', hostname: 'localhost', path, query: request.query, headers }),
        {
          signingDate,
          signingRegion: credential.region,
          signingService: credential.service,
          signableHeaders: new Set(signedHeaders),
          unsignableHeaders: signedHeaders.includes(SHA256_HEADER) ? undefined : new Set([SHA256_HEADER]),
        },
      );
      return /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? ''))?.[1];
    },
    request.rawPath,
    signature,
  );
  if (!matches) throw new S3Error('SignatureDoesNotMatch', undefined, { AWSAccessKeyId: credential.accessKeyId });
  assertPrincipalUsable(principal, headerValue(request.headers, TOKEN_HEADER), now);
  return { accessKeyId: credential.accessKeyId, principal, contentSha256, presigned: false };
}

function requiredQuery(query: QueryBag, name: string): string {
  const value = queryValue(query, name);
  if (value === undefined || value === '') {
    throw new S3Error(
      'AuthorizationQueryParametersError',
      `Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.`,
    );
  }
  return value;
}

async function verifyPresigned(request: SignedRequest, options: VerifyOptions, now: Date): Promise<Authenticated> {
  const { query } = request;
  if (requiredQuery(query, 'X-Amz-Algorithm') !== ALGORITHM) {
    throw new S3Error('AuthorizationQueryParametersError', 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  }
  const credential = parseCredential(requiredQuery(query, 'X-Amz-Credential'), options.region, 'AuthorizationQueryParametersError');
  const amzDate = requiredQuery(query, 'X-Amz-Date');
  const signingDate = parseAmzDate(amzDate);
  if (!signingDate || amzDate.slice(0, 8) !== credential.date) {
    throw new S3Error(
      'AuthorizationQueryParametersError',
      "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\" and match the credential date",
    );
  }
  const expiresText = requiredQuery(query, 'X-Amz-Expires');
  const expiresIn = /^\d+$/.test(expiresText) ? Number(expiresText) : NaN;
  if (!(expiresIn >= 1 && expiresIn <= MAX_PRESIGNED_EXPIRES_SECONDS)) {
    throw new S3Error('AuthorizationQueryParametersError', 'X-Amz-Expires must be a number between 1 and 604800 seconds');
  }
  if (now.getTime() >= signingDate.getTime() + expiresIn * 1000) {
    throw new S3Error('AccessDenied', 'Request has expired', {
      'X-Amz-Expires': expiresText,
      Expires: new Date(signingDate.getTime() + expiresIn * 1000).toISOString(),
      ServerTime: now.toISOString(),
    });
  }
  if (signingDate.getTime() - now.getTime() > MAX_CLOCK_SKEW_MS) throw new S3Error('AccessDenied', 'Request is not valid yet');
  const signedHeaders = requiredQuery(query, 'X-Amz-SignedHeaders').toLowerCase().split(';');
  const signature = requiredQuery(query, 'X-Amz-Signature');
  assertAmzHeadersSigned(request.headers, signedHeaders);

  const principal = await lookupPrincipal(credential.accessKeyId, options.credentials);
  const signer = createSigner(credential.accessKeyId, principal, options.region);
  const unsignedQuery: QueryBag = { ...query };
  delete unsignedQuery['X-Amz-Signature'];
  // Presigned URLs always sign UNSIGNED-PAYLOAD; the header only tells the signer so and is neither signed nor hoisted.
  const headers = signedHeaderBag(request.headers, signedHeaders, UNSIGNED_PAYLOAD);
  const matches = await signatureMatches(
    async (path) => {
      const presigned = await signer.presign(
        new HttpRequest({ method: request.method, protocol: 'http:', hostname: 'localhost', path, query: unsignedQuery, headers }),
        {
          signingDate,
          expiresIn,
          signingRegion: credential.region,
          signingService: credential.service,
          signableHeaders: new Set(signedHeaders),
          unsignableHeaders: signedHeaders.includes(SHA256_HEADER) ? new Set() : new Set([SHA256_HEADER]),
          unhoistableHeaders: new Set(Object.keys(headers)),
        },
      );
      const value = presigned.query?.['X-Amz-Signature'];
      return typeof value === 'string' ? value : undefined;
    },
    request.rawPath,
    signature,
  );
  if (!matches) throw new S3Error('SignatureDoesNotMatch', undefined, { AWSAccessKeyId: credential.accessKeyId });
  assertPrincipalUsable(principal, queryValue(query, 'X-Amz-Security-Token') ?? headerValue(request.headers, TOKEN_HEADER), now);
  return { accessKeyId: credential.accessKeyId, principal, contentSha256: UNSIGNED_PAYLOAD, presigned: true };
}

/** Authenticates a request signed with SigV4 in the Authorization header or in the query string. */
export async function verifySigV4(request: SignedRequest, options: VerifyOptions): Promise<Authenticated> {
  const now = options.now ?? new Date();
  const authorization = headerValue(request.headers, 'authorization');
  const presigned = queryValue(request.query, 'X-Amz-Algorithm') !== undefined || queryValue(request.query, 'X-Amz-Signature') !== undefined;
  if (authorization !== undefined && presigned) {
    throw new S3Error(
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified',
    );
  }
  if (presigned) return verifyPresigned(request, options, now);
  if (authorization === undefined) throw new S3Error('AccessDenied', 'Access Denied');
  if (!authorization.startsWith(`${ALGORITHM} `)) {
    throw new S3Error('InvalidRequest', 'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.');
  }
  return verifyHeaderAuth(request, authorization, options, now);
}
