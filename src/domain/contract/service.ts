import { boolean, enums, object } from 'superstruct';
import { defineOperation } from './define.ts';

/**
 * The service itself rather than its data: liveness and readiness for balancers and
 * orchestrators, the backup `npm run backup` takes while the server runs, and this API's
 * reference. Not a module of named schemas (openapi.ts): these answers are written out inline.
 */
export const StatusStruct = object({ status: enums(['ok']) });

export const ReadinessStruct = object({
  status: enums(['ready', 'starting', 'unavailable', 'stopping']),
  checks: object({ migrations: boolean(), database: boolean(), storage: boolean() }),
});

/** Liveness: reads nothing, so a database outage does not get every instance restarted. */
export const getHealth = defineOperation({ method: 'GET', path: '/health', access: 'public', answer: StatusStruct });
/** Readiness: the same answer with 503 (and Retry-After) when not ready. */
export const getReadiness = defineOperation({ method: 'GET', path: '/ready', access: 'public', answer: ReadinessStruct });
/** A tar stream; public to the auth plugin because its credential is the backup token, checked by the route (loopback only). */
export const getBackup = defineOperation({ method: 'GET', path: '/ops/backup', access: 'public' });
/** The OpenAPI 3.1 document (prepared once, sent compressed by the route). */
export const getOpenApiDocument = defineOperation({ method: 'GET', path: '/openapi.json', access: 'public' });
/** The same as an HTML page. */
export const getReference = defineOperation({ method: 'GET', path: '/reference', access: 'public' });
