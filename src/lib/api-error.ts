/** A failed call, with the server's message, code and field messages (ARCHITECTURE §3). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number | undefined;
  readonly fields: Record<string, string>;
  constructor(status: number, message: string, code?: number, fields: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** An answer the server meant (400–499): asking again gets the same answer. */
export function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}
