import { ApiError, errorMessage } from './api-client.ts';

/**
 * The one mapping from a failed save to a form's field messages (ARCHITECTURE §3): a conflict
 * (409) shows `conflict` when the form names one (the used-e-mail message under the e-mail
 * field), otherwise the server's own field messages. Null when the error names no field: the
 * form then shows `errorMessage(error)` above its fields.
 */
export function fieldErrors<K extends string>(error: unknown, conflict?: Partial<Record<K, string>>): Partial<Record<K, string>> | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409 && conflict) return conflict;
  return Object.keys(error.fields).length ? (error.fields as Partial<Record<K, string>>) : null;
}

/** The message of one field edited in place (a table cell, a title): the server's word on that field, else the error's message. */
export function fieldError(error: unknown, field: string): string {
  return error instanceof ApiError ? (error.fields[field] ?? error.message) : errorMessage(error);
}
