import { string } from 'superstruct';
import * as auth from './auth.ts';
import * as billing from './billing.ts';
import * as customers from './customers.ts';
import * as fields from './fields.ts';
import { isOptional, structKey, toJsonSchema, type AnyStruct, type ConvertOptions, type JsonSchema } from './json-schema.ts';
import * as me from './me.ts';
import * as media from './media.ts';
import { ID_PARAMS, OPERATIONS, TAGS, type Answer, type Operation } from './operations.ts';
import * as organizations from './organizations.ts';
import * as projects from './projects.ts';
import * as review from './review.ts';
import * as uploads from './uploads.ts';
import * as users from './users.ts';

/**
 * The OpenAPI 3.1 document of the API, generated from OPERATIONS and the contract structs. Every
 * exported `…Struct` of src/domain/contract is a named schema (`#/components/schemas/<name>`,
 * without "Struct"), emitted when an operation uses it.
 */

export const API_BASE_PATH = '/api/v1';

const MODULES: Record<string, unknown>[] = [fields, auth, me, organizations, customers, projects, users, uploads, media, review, billing];

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input: `fields` names each failing field with its message.',
  401: 'No valid token.',
  429: 'Too many attempts (`Retry-After`).',
};

function isStruct(value: unknown): value is AnyStruct {
  return typeof value === 'object' && value !== null && 'validator' in value && 'refiner' in value && 'type' in value;
}

/** Name of each exported contract struct, by its key (structKey). */
export function contractNames(): Map<unknown, string> {
  const names = new Map<unknown, string>();
  for (const module of MODULES) {
    for (const [exported, value] of Object.entries(module)) {
      if (!exported.endsWith('Struct') || !isStruct(value)) continue;
      const key = structKey(value);
      if (!names.has(key)) names.set(key, exported.slice(0, -'Struct'.length));
    }
  }
  return names;
}

export { fastifyPath } from './define.ts';

export interface OpenApiOptions {
  title?: string;
  version?: string;
}

export function buildOpenApiDocument(options: OpenApiOptions = {}, operations: readonly Operation[] = OPERATIONS): JsonSchema {
  const names = contractNames();
  const byName = new Map<string, AnyStruct>();
  for (const module of MODULES) {
    for (const [exported, value] of Object.entries(module)) {
      if (exported.endsWith('Struct') && isStruct(value)) byName.set(exported.slice(0, -'Struct'.length), value);
    }
  }
  const used = new Set<string>();
  const convert: ConvertOptions = { names, onRef: (name) => used.add(name) };
  const schema = (struct: AnyStruct) => toJsonSchema(struct, convert);
  const oneOrMore = (structs: AnyStruct | readonly AnyStruct[]) => {
    const list = Array.isArray(structs) ? (structs as readonly AnyStruct[]) : [structs as AnyStruct];
    return list.length === 1 ? schema(list[0]!) : { anyOf: list.map(schema) };
  };

  const errorBody = { $ref: '#/components/schemas/ErrorBody' };
  used.add('ErrorBody');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const parameters: JsonSchema[] = [];
    for (const [, name] of operation.path.matchAll(/\{([^}]+)\}/g)) {
      const struct = operation.params?.[name!] ?? ID_PARAMS[name!] ?? string();
      parameters.push({ name, in: 'path', required: true, schema: schema(struct) });
    }
    if (operation.query?.schema) {
      for (const [name, struct] of Object.entries(operation.query.schema as Record<string, AnyStruct>)) {
        parameters.push({ name, in: 'query', required: !isOptional(struct), schema: schema(struct) });
      }
    }
    const responses: Record<string, unknown> = {};
    const answers: Record<number, Answer | string> = { ...operation.responses };
    if ((operation.body || operation.query) && !answers[400]) answers[400] = STATUS_TEXT[400]!;
    if (operation.auth === 'bearer' && !answers[401]) answers[401] = STATUS_TEXT[401]!;
    if (operation.rateLimited && !answers[429]) answers[429] = STATUS_TEXT[429]!;
    for (const [status, answer] of Object.entries(answers).sort(([a], [b]) => Number(a) - Number(b))) {
      if (typeof answer === 'string') {
        responses[status] = { description: answer, content: { 'application/json': { schema: errorBody } } };
        continue;
      }
      const content = answer.body
        ? { 'application/json': { schema: oneOrMore(answer.body) } }
        : answer.contentType
          ? { [answer.contentType]: { schema: { type: 'string' } } }
          : undefined;
      responses[status] = { description: answer.description, ...(content ? { content } : {}) };
    }
    const entry: Record<string, unknown> = {
      operationId: operationId(operation),
      tags: [operation.tag],
      summary: operation.summary,
      description: [`Who: ${operation.who}.`, operation.notes, operation.onlyWhen ? `Only when: ${operation.onlyWhen}.` : undefined]
        .filter(Boolean)
        .join('\n\n'),
      'x-who': operation.who,
      ...(parameters.length ? { parameters } : {}),
      ...(operation.body ? { requestBody: { required: true, content: { 'application/json': { schema: oneOrMore(operation.body) } } } } : {}),
      responses,
      security: operation.auth === 'bearer' ? [{ bearer: [] }] : [],
    };
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = entry;
  }

  // Named schemas, including the ones they refer to (until no new name appears).
  const schemas: Record<string, JsonSchema> = {};
  let pending = [...used];
  while (pending.length) {
    for (const name of pending) {
      const struct = byName.get(name);
      schemas[name] = struct ? toJsonSchema(struct, convert, true) : {};
    }
    pending = [...used].filter((name) => !(name in schemas));
  }

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: options.title ?? 'Cutdesk API',
      version: options.version ?? '1',
      description: 'Generated from the superstruct contract (src/domain/contract) and its list of operations; conventions in docs/api.md.',
    },
    servers: [{ url: API_BASE_PATH }],
    tags: TAGS,
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}

export function operationId(operation: Pick<Operation, 'method' | 'path'>): string {
  const words = operation.path
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/^\{(.+)\}$/, 'by-$1'))
    .join('-');
  return `${operation.method.toLowerCase()}-${words}`.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));
}
