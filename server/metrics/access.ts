import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** Who may read /metrics: 'allowed', or how to refuse (404 hides the route, 401 asks for the token). */
export type MetricsAccess = 'allowed' | 'not-found' | 'unauthorized';

/** What of a request decides access (plain values, no Fastify types). */
export interface MetricsRequest {
  /** The socket's peer address (the nearest hop). */
  socketAddress: string | undefined;
  /** The client's address as TRUST_PROXY resolves it (request.ip): the socket's when no proxy is trusted. */
  clientAddress: string;
  /** Whether TRUST_PROXY names any proxy. */
  trustsProxies: boolean;
  /** Whether the request carries X-Forwarded-For, Forwarded or X-Real-IP. */
  forwarded: boolean;
  authorization: string | undefined;
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/**
 * Loopback, or the bearer `token` from anywhere. A request a proxy forwarded is loopback only
 * when TRUST_PROXY lets the server see the real client and that client is loopback: a local
 * proxy (nginx on the same machine) in front of public clients would otherwise make every
 * client look like 127.0.0.1. The token is compared in constant time (hashes of equal length).
 */
export function metricsAccess(request: MetricsRequest, token: string | null): MetricsAccess {
  const local = isLoopback(request.socketAddress) && (!request.forwarded || (request.trustsProxies && isLoopback(request.clientAddress)));
  if (local) return 'allowed';
  // Without a token the route does not exist for anyone else.
  if (!token) return 'not-found';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.authorization ?? '');
  return match && sameSecret(match[1]!, token) ? 'allowed' : 'unauthorized';
}

export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
