import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for the browser's upload worker, which PUTs parts straight to the store and must read
 * each part's ETag. Requests are authorized by their signature, not by origin, so any
 * origin is echoed back; no cookies are involved, hence no Allow-Credentials.
 */

const ALLOWED_METHODS = 'GET, PUT, POST, DELETE, HEAD';
const EXPOSED_HEADERS = 'ETag, x-amz-version-id, Content-Range, Content-Length';
const PREFLIGHT_MAX_AGE_SECONDS = '3000';

/** Adds the CORS answer headers to any request that carries an Origin. */
export function addCorsHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  reply.header('vary', 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method');
}

/** Answers a preflight OPTIONS (before any authentication: browsers send no credentials with it). */
export function answerPreflight(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const method = request.headers['access-control-request-method'];
  if (request.headers.origin === undefined || method === undefined) {
    return reply.code(400).type('text/plain').send('Insufficient information. Origin request header needed.');
  }
  reply.header('access-control-allow-methods', ALLOWED_METHODS);
  const requestedHeaders = request.headers['access-control-request-headers'];
  if (requestedHeaders !== undefined) reply.header('access-control-allow-headers', requestedHeaders);
  reply.header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
  return reply.code(200).send();
}
