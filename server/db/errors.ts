/** True for PostgreSQL's unique_violation (23505), from pg or PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * SQLSTATEs of a server that cannot serve now: admin_shutdown (a stop or restart ended the
 * connection), crash_shutdown, cannot_connect_now (starting up or shutting down), and
 * too_many_connections (full for now). Class 08, connection exceptions, is matched as a class.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Socket errors of a database that does not answer: refused, reset, broken pipe, timed out,
 * unreachable, or a name that does not resolve (now: the server started with it).
 */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What pg, its pool, Kysely and the embedded database say when there is no connection to use. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated( unexpectedly| due to connection timeout)?$/, // pg: the server went away; the pool's connect timeout
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection within connectionTimeoutMillis
  /^Client (has encountered a connection error|was closed) and is not queryable$/, // pg: a client whose connection broke
  /^driver has already been destroyed$/, // Kysely, while the server shuts down
  /^PGlite is closed$/, // embedded PGlite, while the server shuts down
];

/**
 * Whether `error` says the database cannot be reached or cannot serve right now (an outage, a
 * restart, a failover, the server's own shutdown), as opposed to a fault of the statement or the
 * data: the API answers the first with 503 and Retry-After (server/app.ts), the second with 500.
 * Pure: it reads `code`, `message`, `syscall`, an AggregateError's `errors` and the `cause` chain.
 *
 * A socket error carries no name of the server it came from: an ECONNREFUSED of another service
 * a request calls (the object store, the payment gateway) is classified the same, and a 503 with
 * Retry-After is the right answer for it too.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, syscall, errors, cause } = error as { code?: unknown; message?: unknown; syscall?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    // A Unix socket whose file is gone: the server is stopped (ENOENT elsewhere is a missing file).
    if (code === 'ENOENT' && syscall === 'connect') return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // Node's AggregateError of a connect tried on every address of a name (IPv6 and IPv4).
  if (Array.isArray(errors) && errors.length > 0 && errors.every((each) => isDatabaseUnavailable(each, depth + 1))) return true;
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}

/**
 * An unavailable database's error as a log line holds it: its type, message and code, no stack
 * (every statement fails the same way meanwhile) and no parameters. Not under `err`, whose
 * serializer would add an empty stack and call the type "Object".
 */
export function unavailableFields(error: unknown): { dbError: { type: string; message: string; code: unknown } } {
  const { name, message, code } = (typeof error === 'object' && error !== null ? error : {}) as { name?: unknown; message?: unknown; code?: unknown };
  return { dbError: { type: String(name ?? typeof error), message: String(message ?? error), code } };
}
