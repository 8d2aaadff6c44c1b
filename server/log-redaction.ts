import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are secrets: single-use codes of /change-password links,
 * bot-check and media tokens, event-stream tickets, guest review passes, SigV4 presigned-URL signatures and session tokens. Request logs
 * keep the parameter's name and drop its value, so no log line carries a usable secret.
 */
const SECRET_PARAMETERS = /^(code|token|ticket|t|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|password|secret|key|pass)$/i;

// Media and zip links carry their signed token as a path segment: /api/v1/media/<token>/<file>, /api/v1/zips/<token>/<file>.
const MEDIA_TOKEN = /(\/api\/v1\/(?:media|zips)\/)[^/?]+/;
// Guest review links carry theirs too: the API's /api/v1/share/<token>/… and the page /review/<token>.
const SHARE_TOKEN = /(\/api\/v1\/share\/|^\/review\/)[^/?]+/;
// Coupon codes are path segments too, and a single-use or 100 % code is worth money to whoever reads logs.
const COUPON_CODE = /(\/api\/v1\/(?:payment-plans\/coupons|admin\/coupons)\/)[^/?]+/;

/** `url` with the values of secret query parameters (and media tokens) replaced by "[redacted]". */
export function redactUrl(rawUrl: string): string {
  const url = rawUrl.replace(MEDIA_TOKEN, '$1[redacted]').replace(SHARE_TOKEN, '$1[redacted]').replace(COUPON_CODE, '$1[redacted]');
  const questionMark = url.indexOf('?');
  if (questionMark === -1) return url;
  const pairs = url
    .slice(questionMark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // an undecodable name is logged as sent
      }
      return SECRET_PARAMETERS.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, questionMark)}?${pairs.join('&')}`;
}

/** Fastify's request serializer, with the URL redacted (headers are never logged). */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
