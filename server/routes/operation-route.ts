import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, LogLevel } from 'fastify';
import { fastifyPath, ID_PARAM_NAMES, type AnswerOf, type AnyOperation, type BodyOf, type ParamsOf, type QueryOf } from '../../src/domain/contract/define.ts';
import { notFound, parse } from '../http-error.ts';
import { idParam } from './params.ts';

/** What a route's handler gets of a call, parsed by its operation's structs. */
export interface OperationInput<O> {
  params: ParamsOf<O>;
  query: QueryOf<O>;
  body: BodyOf<O>;
}

/** A handler answers the operation's answer (sent with its success status), or sends the reply itself. */
export type OperationHandler<O> = (input: OperationInput<O>, request: FastifyRequest, reply: FastifyReply) => Promise<AnswerOf<O> | FastifyReply>;

const ID_PARAMS: ReadonlySet<string> = new Set(ID_PARAM_NAMES);

/** The names in a path's braces, read once when its route is registered. */
const paramNames = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);

/** A path's parameters: ids as numbers (404 when not a plain positive integer), the others as sent (404 when empty). */
function pathParams(names: readonly string[], raw: unknown): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  for (const name of names) {
    if (ID_PARAMS.has(name)) params[name] = idParam(raw, name);
    else {
      const value = (raw as Record<string, string | undefined>)[name];
      if (!value) throw notFound();
      params[name] = value;
    }
  }
  return params;
}

/** Parsed queries kept per route that asks for it; past it the one kept longest goes first. */
const MOST_QUERIES = 64;

/**
 * A query parser that keeps what it parsed (issue 34: parsing was the largest part of the CPU of
 * a staff board page answered from memory, and the board is asked for with the same few queries).
 * Keyed by the query as the router parsed it, not by the URL's text: the router also starts a
 * query at `#`, so a key cut from the URL could name a different query than the one parsed (a
 * review found `GET /projects#archived=true` kept under the empty query, served to every caller).
 * Parsing is a pure function of that object (the contract's defaults are constants), a refused
 * query is not kept, and a kept one is frozen: the handlers share it. Only for routes that opt in,
 * whose queries carry no credential (a ticket or a link's token would stay in memory).
 */
function keptQueries<T>(parseQuery: (raw: unknown) => T): (request: FastifyRequest) => T {
  const kept = new Map<string, T>();
  return (request) => {
    const key = JSON.stringify(request.query);
    let query = kept.get(key);
    if (query === undefined) {
      query = deepFreeze(parseQuery(request.query));
      kept.set(key, query);
      if (kept.size > MOST_QUERIES) kept.delete(kept.keys().next().value!);
    }
    return query;
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Registers the route of one operation (src/domain/contract/define.ts): its method and path, its
 * access (checked by server/plugins/auth.ts before anything is parsed), then its path parameters,
 * query and body parsed by its structs (400 naming each failing field, 404 for an id that cannot
 * name a row) before the handler runs. What the handler answers goes out with the operation's
 * success status; `options` adds what only this server needs (a response schema, rate limits, a
 * quieter log).
 */
export function route<O extends AnyOperation>(
  app: FastifyInstance,
  operation: O,
  handler: OperationHandler<O>,
  options: {
    config?: Omit<FastifyContextConfig, 'access' | 'organizationParam'>;
    schema?: FastifySchema;
    bodyLimit?: number;
    logLevel?: LogLevel;
    /** Keep parsed queries (a hot GET route whose query is no credential; see keptQueries). */
    keepParsedQueries?: boolean;
  } = {},
): void {
  const names = paramNames(operation.path);
  const { query: queryStruct } = operation;
  const parseQuery = !queryStruct
    ? () => undefined
    : options.keepParsedQueries
      ? keptQueries((raw) => parse(queryStruct, raw))
      : (request: FastifyRequest) => parse(queryStruct, request.query);
  app.route({
    method: operation.method,
    url: fastifyPath(operation.path),
    config: { access: operation.access, ...(operation.organizationParam && { organizationParam: operation.organizationParam }), ...options.config },
    ...(options.schema && { schema: options.schema }),
    ...(options.bodyLimit && { bodyLimit: options.bodyLimit }),
    ...(options.logLevel && { logLevel: options.logLevel }),
    handler: async (request, reply) => {
      const input = {
        params: pathParams(names, request.params),
        query: parseQuery(request),
        body: operation.body ? parse(operation.body, request.body) : undefined,
      } as OperationInput<O>;
      const answer = await handler(input, request, reply);
      // A reply is a thenable (it settles when sent): a handler that returns it resolves to
      // undefined once the answer is out, so what counts is whether it was sent (or hijacked).
      if (answer === reply || reply.sent) return reply;
      if (answer === undefined) return reply.code(operation.status ?? 204).send();
      return reply.code(operation.status ?? 200).send(answer);
    },
  });
}
