/**
 * How the server reads PostgreSQL's values, the same from pg and from PGlite (in this thread or
 * on its own, server/db/pglite-thread.ts): int8 and numeric carry byte counts and quotas, far
 * below 2^53, so plain numbers are safe; `date` columns stay 'YYYY-MM-DD' text so no time zone
 * can shift them. No imports: PGlite's thread loads it.
 */
export const INT8 = 20;
export const NUMERIC = 1700;
export const DATE = 1082;

/** PGlite's `parsers` option. */
export const PGLITE_PARSERS = { [INT8]: Number, [NUMERIC]: Number, [DATE]: (value: string) => value };
