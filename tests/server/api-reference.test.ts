import { validate } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, fastifyPath } from '../../src/domain/contract/openapi.ts';
import { OPERATIONS, type Operation } from '../../src/domain/contract/operations.ts';
import { listRoutes } from '../security/route-list.ts';
import { signIn, startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 10: the API reference is generated from src/domain/contract/operations.ts, so every
 * route the server registers must have an entry there, and every entry must name a route.
 */

const key = (method: string, url: string) => `${method} ${url}`;
const operationKey = (operation: Operation) => key(operation.method, `${API_BASE_PATH}${fastifyPath(operation.path)}`);

async function apiRoutes(server: TestServer): Promise<string[]> {
  const routes = await listRoutes(server.app);
  return routes
    .filter((route) => route.url.startsWith(`${API_BASE_PATH}/`) && route.method !== 'HEAD' && route.method !== 'OPTIONS')
    .map((route) => key(route.method, route.url));
}

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_reference',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_reference',
  STRIPE_WEBHOOK_SECRET: 'whsec_reference',
  STRIPE_API_HOST: '127.0.0.1',
  STRIPE_API_PORT: '9',
  STRIPE_API_PROTOCOL: 'http',
};

type Json = Record<string, unknown>;

describe('API reference', () => {
  let server: TestServer;
  let routes: string[];

  beforeAll(async () => {
    server = await startTestServer(null, { seed: false });
    routes = await apiRoutes(server);
  });
  afterAll(async () => server?.close());

  it('has an operation for every registered /api/v1 route, and a route for every operation', () => {
    const documented = OPERATIONS.filter((operation) => operation.onlyWhen !== 'stripe-webhook').map(operationKey);
    expect(routes.length).toBeGreaterThan(50);
    expect(
      routes.filter((route) => !documented.includes(route)),
      'routes without an entry in src/domain/contract/operations.ts',
    ).toEqual([]);
    expect(
      documented.filter((operation) => !routes.includes(operation)),
      'entries in operations.ts that name no route',
    ).toEqual([]);
    expect(new Set(OPERATIONS.map(operationKey)).size, 'one entry per route').toBe(OPERATIONS.length);
  });

  it('covers the routes of the Stripe configuration too (webhook, no card form)', async () => {
    const saved = Object.fromEntries(Object.keys(STRIPE_ENV).map((name) => [name, process.env[name]]));
    Object.assign(process.env, STRIPE_ENV);
    let stripe: TestServer | undefined;
    try {
      stripe = await startTestServer(null, { seed: false, env: STRIPE_ENV });
      const stripeRoutes = await apiRoutes(stripe);
      const documented = OPERATIONS.filter((operation) => operation.onlyWhen !== 'embedded-gateway').map(operationKey);
      expect(stripeRoutes.filter((route) => !documented.includes(route))).toEqual([]);
      expect(documented.filter((operation) => !stripeRoutes.includes(operation))).toEqual([]);
    } finally {
      await stripe?.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('answers GET openapi.json without a token: OpenAPI 3.1 whose every $ref resolves', async () => {
    const response = await server.app.inject({ method: 'GET', url: `${API_BASE_PATH}/openapi.json` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const document = response.json<Json>();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const paths = document.paths as Record<string, Record<string, Json>>;
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;

    let operations = 0;
    for (const [path, item] of Object.entries(paths)) {
      expect(path.startsWith('/')).toBe(true);
      for (const [method, operation] of Object.entries(item)) {
        operations++;
        expect(['get', 'post', 'put', 'patch', 'delete']).toContain(method);
        const responses = operation.responses as Record<string, { description: string }>;
        expect(Object.keys(responses).length, `${method} ${path} has responses`).toBeGreaterThan(0);
        for (const [status, answer] of Object.entries(responses)) {
          expect(status).toMatch(/^[1-5]\d\d$/);
          expect(answer.description).toBeTruthy();
        }
        // Every {param} of the path is declared as a required path parameter, and no other.
        const declared = ((operation.parameters as Json[] | undefined) ?? []).filter((p) => p.in === 'path');
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        expect(declared.map((p) => p.name).sort()).toEqual(inPath.sort());
        expect(declared.every((p) => p.required === true)).toBe(true);
        expect(typeof operation.operationId).toBe('string');
      }
    }
    expect(operations).toBe(OPERATIONS.length);
    const ids = Object.values(paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);

    const refs: string[] = [];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [name, child] of Object.entries(value)) {
          if (name === '$ref') refs.push(child as string);
          else walk(child);
        }
      }
    };
    walk(document);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of new Set(refs)) {
      const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
      expect(match, ref).not.toBeNull();
      expect(schemas, ref).toHaveProperty([match![1]!]);
    }
    // Every named schema is used somewhere.
    for (const name of Object.keys(schemas)) expect(refs).toContain(`#/components/schemas/${name}`);
  });

  it('answers GET reference without a token: an HTML page without script that lists every path', async () => {
    const response = await server.app.inject({ method: 'GET', url: `${API_BASE_PATH}/reference` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    const html = response.body;
    expect(html).not.toMatch(/<script/i);
    for (const operation of OPERATIONS) {
      const escaped = `${API_BASE_PATH}${operation.path}`.replace(/&/g, '&amp;');
      expect(html, `${operation.method} ${operation.path}`).toContain(`${operation.method}</span> <code>${escaped}</code>`);
    }
    expect(html).toContain('id="schema-Project"');
  });
});

describe('API reference answers', () => {
  let server: TestServer;
  afterAll(async () => server?.close());

  // The documented answer structs are the served shapes (object() structs refuse unknown keys).
  it('documents the shapes the server answers with', async () => {
    server = await startTestServer(null);
    const organization = await server.db.selectFrom('organizations').select('id').orderBy('id').executeTakeFirstOrThrow();
    const project = await server.db.selectFrom('projects').select('id').where('organizationId', '=', organization.id).orderBy('id').executeTakeFirstOrThrow();
    const callers = { owner: await signIn(server.app, 'owner@demo.cutdesk.test'), admin: await signIn(server.app, 'admin@demo.cutdesk.test') };
    const calls: [keyof typeof callers, string, string][] = [
      ['owner', '/me', '/me'],
      ['owner', '/organizations/{id}', `/organizations/${organization.id}`],
      ['admin', '/organizations/{id}', `/organizations/${organization.id}`],
      ['admin', '/organizations', '/organizations'],
      ['owner', '/organizations/{id}/credits', `/organizations/${organization.id}/credits`],
      ['owner', '/organizations/{id}/users', `/organizations/${organization.id}/users`],
      ['owner', '/organizations/{id}/projects', `/organizations/${organization.id}/projects`],
      ['admin', '/projects', '/projects'],
      ['owner', '/projects/{id}', `/projects/${project.id}`],
      ['admin', '/projects/{id}', `/projects/${project.id}`],
      ['owner', '/projects/{id}/assets', `/projects/${project.id}/assets`],
      ['admin', '/projects/{id}/media-jobs', `/projects/${project.id}/media-jobs`],
      ['admin', '/users', '/users?role=staff'],
      ['admin', '/users/trial', '/users/trial'],
      ['owner', '/client-config', '/client-config'],
      ['owner', '/health', '/health'],
      ['owner', '/payment-plans', '/payment-plans'],
      ['owner', '/payment-plans/coupons/{code}', '/payment-plans/coupons/welcome10'],
      ['owner', '/organizations/{id}/subscriptions', `/organizations/${organization.id}/subscriptions`],
      ['admin', '/admin/payment-plans', '/admin/payment-plans'],
      ['admin', '/admin/coupons', '/admin/coupons'],
    ];
    for (const [caller, path, url] of calls) {
      const operation = OPERATIONS.find((o) => o.method === 'GET' && o.path === path)!;
      const answer = operation.responses[200];
      const body = typeof answer === 'object' ? answer.body : undefined;
      expect(body, `GET ${path} documents its answer`).toBeDefined();
      const response = await server.app.inject({ method: 'GET', url: `${API_BASE_PATH}${url}`, headers: callers[caller] });
      expect(response.statusCode, `${caller} GET ${url}`).toBe(200);
      const alternatives = Array.isArray(body) ? body : [body];
      const problems = alternatives.map((struct) => validate(response.json(), struct)[0]?.message);
      expect(
        problems.some((problem) => problem === undefined),
        `${caller} GET ${url}: ${problems.join(' / ')}`,
      ).toBe(true);
    }
  });
});
