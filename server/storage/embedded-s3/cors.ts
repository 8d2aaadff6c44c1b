import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for the browser's upload worker, which PUTs parts straight to the store and must read
 * each part's ETag, and for the page's reads of presigned objects (the player, the zip writer).
 * Requests are authorized by their signature, but the answers are the app's to read: only the
 * origins the store is told about (EmbeddedS3Options.allowOrigin) and the request's own are
 * answered (issue 36: any Origin used to be echoed). A request from another origin is still
 * served (CORS binds browsers, not S3 clients); its answer just carries no Allow-Origin, so a
 * browser keeps it from that page, and its preflight is refused. No cookies are involved,
 * hence no Allow-Credentials.
 */

const ALLOWED_METHODS = 'GET, PUT, POST, DELETE, HEAD';
const EXPOSED_HEADERS = 'ETag, x-amz-version-id, Content-Range, Content-Length';
const PREFLIGHT_MAX_AGE_SECONDS = '3000';
/** Which headers an answer depends on: a cache must not give one origin's answer to another. */
const VARY = 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method';

type OriginCheck = (origin: string, request: FastifyRequest) => boolean;

/** The origin this request was addressed to, as a browser serializes one (no default port). */
function ownOrigin(request: FastifyRequest): string | null {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return null;
  }
}

/** Adds the CORS answer headers to a request that carries an Origin the store answers. */
export function addCorsHeaders(request: FastifyRequest, reply: FastifyReply, allowOrigin: OriginCheck | undefined): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  reply.header('vary', VARY);
  if (origin !== ownOrigin(request) && !allowOrigin?.(origin, request)) return;
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
}

/**
 * Answers a preflight OPTIONS (before any authentication: browsers send no credentials with
 * it), after addCorsHeaders: an origin it did not answer is refused with 403, as S3 refuses
 * an origin no CORS rule names.
 */
export function answerPreflight(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const method = request.headers['access-control-request-method'];
  if (request.headers.origin === undefined || method === undefined) {
    return reply.code(400).type('text/plain').send('Insufficient information. Origin request header needed.');
  }
  if (!reply.hasHeader('access-control-allow-origin')) {
    return reply
      .code(403)
      .type('text/plain')
      .send("CORSResponse: This CORS request is not allowed: the origin is not one of this store's (see S3_CORS_ORIGINS).");
  }
  reply.header('access-control-allow-methods', ALLOWED_METHODS);
  const requestedHeaders = request.headers['access-control-request-headers'];
  if (requestedHeaders !== undefined) reply.header('access-control-allow-headers', requestedHeaders);
  reply.header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
  return reply.code(200).send();
}
