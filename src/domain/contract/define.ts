import type { Infer, Struct } from 'superstruct';

/**
 * One definition per API operation (issue 33): its method, path, access and the structs of its
 * parameters, query, body and answer, written once beside the structs. The server registers its
 * route from it (server/routes/operation-route.ts: access, parsing and the answer), the browser
 * calls it through `call` (src/lib/api-client.ts: the path built from the parameters, the answer
 * checked), and the OpenAPI document reads it (operations.ts adds only the prose: summary, who,
 * the meaning of each answer). Nothing here is more than data and types, so a page that calls
 * one operation carries that operation's structs and nothing of the reference's prose.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation, checked by the server before the body is parsed (server/plugins/auth.ts):
 * - `public`: no token (sign-in, registration, plans, signed media links, webhooks);
 * - `signed-in`: any valid session; the route decides the rest from the caller;
 * - `customer`: a member of an organization (OWNER or USER, an impersonating admin included);
 * - `owner`: the OWNER, signed in as themselves (C§6: the owner buys; staff acting through an
 *   impersonation may look but not pay);
 * - `staff`: SUPERADMIN, ADMIN or EDITOR, not through an impersonation;
 * - `managers`: SUPERADMIN or ADMIN (A§6: what the UI hides from an EDITOR, the server refuses);
 * - `superadmins`: SUPERADMIN only, not through an impersonation (the Log In As trail, issue 36).
 */
export type Access = 'public' | 'signed-in' | 'customer' | 'owner' | 'staff' | 'managers' | 'superadmins';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SomeStruct = Struct<any, any>;

/** Path parameters that name a row: a positive integer (anything else is a 404 on the server). */
export const ID_PARAM_NAMES = ['id', 'assetId', 'commentId', 'linkId'] as const;
type IdParamName = (typeof ID_PARAM_NAMES)[number];

/** The names in braces of a path template: `/projects/{id}/assets/{assetId}` → `'id' | 'assetId'`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNames<Rest> : never;

/** The values of a path's parameters: ids are numbers, other parameters text. */
export type PathParams<P extends string> = { [Name in PathParamNames<P>]: Name extends IdParamName ? number : string };

export interface OperationDefinition<
  P extends string = string,
  Q extends SomeStruct | undefined = SomeStruct | undefined,
  B extends SomeStruct | undefined = SomeStruct | undefined,
  A extends SomeStruct | undefined = SomeStruct | undefined,
> {
  method: HttpMethod;
  /** Under /api/v1, path parameters in braces: `/organizations/{id}`. */
  path: P;
  access: Access;
  /**
   * The operation acts on the organization its `{id}` names: a customer of another organization
   * gets 404 (it does not exist for them) before any role check; staff see every one.
   */
  organizationParam?: 'id';
  query?: Q;
  body?: B;
  /** The JSON answer of success. */
  answer?: A;
  /** The status of success: 200 with an answer, 204 without, unless said here (201 for a creation). */
  status?: number;
}

/** Declares an operation, keeping its path's literal type (for its parameters) and its structs' types. */
export function defineOperation<
  const P extends string,
  Q extends SomeStruct | undefined = undefined,
  B extends SomeStruct | undefined = undefined,
  A extends SomeStruct | undefined = undefined,
>(definition: OperationDefinition<P, Q, B, A>): OperationDefinition<P, Q, B, A> {
  return definition;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = OperationDefinition<string, any, any, any>;

/** What a call of `O` answers: its answer struct's type, or nothing. */
export type AnswerOf<O> =
  O extends OperationDefinition<string, SomeStruct | undefined, SomeStruct | undefined, infer A> ? (A extends SomeStruct ? Infer<A> : void) : never;
/** The body `O` takes. */
export type BodyOf<O> =
  O extends OperationDefinition<string, SomeStruct | undefined, infer B, SomeStruct | undefined> ? (B extends SomeStruct ? Infer<B> : undefined) : never;
/** The query `O` takes. */
export type QueryOf<O> =
  O extends OperationDefinition<string, infer Q, SomeStruct | undefined, SomeStruct | undefined> ? (Q extends SomeStruct ? Infer<Q> : undefined) : never;
/** The path parameters `O` takes. */
export type ParamsOf<O> = O extends OperationDefinition<infer P> ? PathParams<P> : never;

/** `/organizations/{id}` → `/organizations/:id` (Fastify's spelling). */
export function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** An operation's path (below the API's base, `/api/v1`) with its parameters filled in, each encoded. */
export function operationPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}
