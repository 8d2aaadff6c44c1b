import { FetchError, ofetch } from 'ofetch';
import { create, type Struct } from 'superstruct';
import { MESSAGES } from '@/domain/messages.ts';
import { appStore, tokenAtom } from './session-state.ts';

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

const http = ofetch.create({
  baseURL: '/api/v1',
  retry: 0,
  onRequest({ options }) {
    const token = appStore.get(tokenAtom);
    if (token) options.headers.set('Authorization', `Bearer ${token}`);
  },
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The one way the app calls the server. The answer is checked against the shared contract
 * struct, so a server that drifts from the contract fails loudly here, not deep in the UI.
 */
export async function api<T, S>(method: Method, path: string, options: { body?: unknown; query?: Record<string, unknown>; struct?: Struct<T, S> } = {}): Promise<T> {
  try {
    const data: unknown = await http(path, { method, body: options.body as Record<string, unknown>, query: options.query });
    return options.struct ? create(data, options.struct) : (data as T);
  } catch (error) {
    if (error instanceof FetchError) {
      const body = (error.data ?? {}) as { message?: string; code?: number; fields?: Record<string, string> };
      throw new ApiError(error.status ?? 0, body.message ?? MESSAGES.generic, body.code, body.fields);
    }
    throw error;
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : MESSAGES.generic;
}
