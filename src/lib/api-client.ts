import { FetchError, ofetch } from 'ofetch';
import { create, type Struct } from 'superstruct';
import { operationPath, type AnswerOf, type AnyOperation, type BodyOf, type ParamsOf, type QueryOf } from '@/domain/contract/define.ts';
import { MESSAGES } from '@/domain/messages.ts';
import { ApiError } from './api-error.ts';
import { cacheGeneration, cacheKey, getCached, isCacheableRead, putCached } from './offline-cache.ts';
import { appStore, meAtom, offlineAtom, tokenAtom } from './session-state.ts';
import { tokenUserId } from './token-schedule.ts';

/** What a call that needs the server says while the network is gone. */
const OFFLINE_MESSAGE = 'You are offline. This needs a connection.';

export { ApiError };

const http = ofetch.create({ baseURL: '/api/v1', retry: 0 });

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let unauthorizedHandler: ((token: string) => void) | null = null;
/** The session module says here what a 401 does (end the session, go to sign-in): no import cycle. */
export function onUnauthorized(handler: (token: string) => void): void {
  unauthorizedHandler = handler;
}

/**
 * A failure of the network, not an answer of the server: no status (ofetch's FetchError for a
 * request that never got a response), or any failure while the browser says it is offline.
 */
function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof FetchError)) return false;
  return error.status === undefined || (typeof navigator !== 'undefined' && navigator.onLine === false && error.status !== 401);
}

function setOffline(offline: boolean): void {
  if (appStore.get(offlineAtom) !== offline) appStore.set(offlineAtom, offline);
}

/** The server's answer to a refused call, as the error the pages show (its message, its fields). */
function answerError(error: FetchError): ApiError {
  const body = (error.data ?? {}) as { message?: string; code?: number; fields?: Record<string, string> };
  return new ApiError(error.status ?? 0, body.message ?? MESSAGES.generic, body.code, body.fields);
}

/**
 * A call that is not the session's: a guest's, under a share link's token (issue 13). It sends
 * no session token, so a 401 here (a protected link's pass missing) never ends the session of
 * someone signed in in the same browser, and nothing is kept for offline use.
 */
async function sendAsGuest<T, S>(
  method: Method,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; struct?: Struct<T, S> } = {},
): Promise<T> {
  let data: unknown;
  try {
    data = await http(path, { method, body: options.body as Record<string, unknown>, headers: options.headers });
  } catch (error) {
    if (isNetworkFailure(error)) throw new ApiError(0, OFFLINE_MESSAGE);
    throw error instanceof FetchError ? answerError(error) : error;
  }
  return options.struct ? create(data, options.struct) : (data as T);
}

/**
 * Every call of the session goes through here (pages name operations: `call` below). The answer
 * is checked against the shared contract struct, so a server that drifts from the contract
 * fails loudly here, not deep in the UI.
 *
 * A 401 to a call made with the session's token ends the session (the handler sends the user to
 * sign in with a return path); a network failure keeps it, marks the app offline and, for the
 * reads the offline pages make, answers the last copy kept for this user (the offline banner says the page is read-only).
 */
async function send<T, S>(method: Method, path: string, options: { body?: unknown; query?: Record<string, unknown>; struct?: Struct<T, S> } = {}): Promise<T> {
  const token = appStore.get(tokenAtom);
  // An answer is kept only as the copy of the user the token belongs to: while a session switches
  // (Admin logout, Log In As) the stored user and the token can name two people for a moment.
  const meId = appStore.get(meAtom)?.id ?? null;
  const userId = token && meId !== null && tokenUserId(token) === meId ? meId : null;
  const key = userId !== null && isCacheableRead(method, path) ? cacheKey(userId, path, options.query) : null;
  const generation = cacheGeneration();
  let data: unknown;
  try {
    data = await http(path, {
      method,
      body: options.body as Record<string, unknown>,
      query: options.query,
      headers: token ? { Authorization: `Bearer ${token}` } : undefined,
    });
  } catch (error) {
    if (isNetworkFailure(error)) {
      setOffline(true);
      const cached = key ? await getCached(key) : null;
      if (cached) {
        return options.struct ? create(cached.data, options.struct) : (cached.data as T);
      }
      throw new ApiError(0, OFFLINE_MESSAGE);
    }
    if (error instanceof FetchError) {
      if (error.status === 401 && token && token === appStore.get(tokenAtom)) unauthorizedHandler?.(token);
      throw answerError(error);
    }
    throw error;
  }
  setOffline(false);
  if (key && userId !== null && token === appStore.get(tokenAtom)) void putCached(userId, key, data, generation);
  return options.struct ? create(data, options.struct) : (data as T);
}

type ParamsInput<O> = keyof ParamsOf<O> extends never ? { params?: undefined } : { params: ParamsOf<O> };
type BodyInput<O> = BodyOf<O> extends undefined ? { body?: undefined } : { body: BodyOf<O> };
type QueryInput<O> = QueryOf<O> extends undefined ? { query?: undefined } : { query?: Partial<QueryOf<O>> };
/** What a call of `O` sends: its path's parameters, its query, its body. */
export type CallInput<O> = ParamsInput<O> & BodyInput<O> & QueryInput<O>;
type CallArgs<O> = keyof ParamsOf<O> extends never ? (BodyOf<O> extends undefined ? [input?: CallInput<O>] : [input: CallInput<O>]) : [input: CallInput<O>];

/**
 * Calls one operation of the contract (src/domain/contract/define.ts) as `api` does: its path
 * built from the parameters, its answer checked against the operation's answer struct. The one
 * way a page names a call: no path is written by hand in src/.
 */
export function call<O extends AnyOperation>(operation: O, ...[input]: CallArgs<O>): Promise<AnswerOf<O>> {
  const { params, query, body } = (input ?? {}) as { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };
  return send(operation.method, operationPath(operation.path, params), { body, query, struct: operation.answer }) as Promise<AnswerOf<O>>;
}

/**
 * `call` outside the session (`sendAsGuest`: no session token, a 401 never ends the session,
 * nothing kept offline): a guest under a share link's token, whose `headers` carry a protected
 * link's pass, or a call made with a token of its own. These calls take no query.
 */
export function callAsGuest<O extends AnyOperation>(operation: O, input: CallInput<O>, headers: Record<string, string> = {}): Promise<AnswerOf<O>> {
  const { params, body } = input as { params?: Record<string, string | number>; body?: unknown };
  return sendAsGuest(operation.method, operationPath(operation.path, params), { body, headers, struct: operation.answer }) as Promise<AnswerOf<O>>;
}

export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : MESSAGES.generic;
}
