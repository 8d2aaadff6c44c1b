import { StructError, validate, type Struct } from 'superstruct';
import { MESSAGES } from '../src/domain/messages.ts';
import type { ErrorBody } from '../src/domain/contract/fields.ts';

/** A 503 of an instance that is too busy for more (load shedding, the embedded database's full queue). */
export const BUSY_MESSAGE = 'The server is busy right now. Please try again in a few seconds.';

/** A 503 of an instance whose database does not answer (an outage, a restart, a failover). */
export const UNAVAILABLE_MESSAGE = 'Cutdesk cannot reach its database right now. Please try again in a few seconds.';
/** Retry-After of that 503 and of GET /ready's: probes and clients come back within seconds, not a burst. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** An error whose status and body go to the client as they are (ARCHITECTURE §3). */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly body: ErrorBody;
  constructor(statusCode: number, message: string, extra: Omit<ErrorBody, 'message'> = {}) {
    super(message);
    this.statusCode = statusCode;
    this.body = { message, ...extra };
  }
}

export const badRequest = (message: string, extra?: Omit<ErrorBody, 'message'>) => new HttpError(400, message, extra);
export const unauthorized = (message: string = MESSAGES.unauthorized) => new HttpError(401, message);
export const forbidden = (message: string = MESSAGES.forbidden) => new HttpError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new HttpError(404, message);
export const conflict = (message: string, extra?: Omit<ErrorBody, 'message'>) => new HttpError(409, message, extra);

/** Field name → message, for every failure of a struct. */
export function fieldMessages(error: StructError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const failure of error.failures()) {
    const key = failure.path.join('.') || '_';
    fields[key] ??= failure.message;
  }
  return fields;
}

/**
 * superstruct's `validate`, where a value it cannot even describe is invalid input: to word a
 * failure it prints the value with a template string, which throws on an object whose `toString`
 * is not a function (JSON can send `{"toString": 1}`; the fuzz test found it as a 500). Its
 * failures are listed lazily, so `describe` (which reads them) runs inside the guard too.
 */
export function validateInput<T, S, R>(
  value: unknown,
  struct: Struct<T, S>,
  options: { coerce?: boolean },
  describe: (error: StructError) => R,
): { ok: true; value: T } | { ok: false; problem: R | null } {
  try {
    const [error, result] = validate(value, struct, options);
    return error ? { ok: false, problem: describe(error) } : { ok: true, value: result };
  } catch (error) {
    if (error instanceof TypeError) return { ok: false, problem: null };
    throw error;
  }
}

/** Validates and coerces `value` with the shared contract; a 400 with field messages otherwise. */
export function parse<T, S>(struct: Struct<T, S>, value: unknown): T {
  const checked = validateInput(value ?? {}, struct, { coerce: true }, fieldMessages);
  if (checked.ok) return checked.value;
  if (!checked.problem) throw badRequest(MESSAGES.invalidInput);
  const first = Object.values(checked.problem)[0];
  throw badRequest(first ?? MESSAGES.invalidInput, { fields: checked.problem });
}

/** The database cannot serve now (server/db/errors.ts's isDatabaseUnavailable): 503 with Retry-After, not 500. */
export class DatabaseUnavailable extends HttpError {
  readonly retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS;
  constructor() {
    super(503, UNAVAILABLE_MESSAGE);
  }
}

/**
 * The database or the disk under it is full (PostgreSQL's 53100, PGlite's ENOSPC): 507, not 500.
 * Nothing of the request was stored (its transaction rolled back); the operator frees space.
 */
export class StorageFull extends HttpError {
  constructor() {
    super(
      507,
      'Cutdesk has run out of disk space and cannot save this right now. Nothing was saved: please try again later (the administrator has been told in the log).',
    );
  }
}
