import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestServer, type TestServer } from '../server/harness.ts';
import { listRoutes, type ListedRoute } from './route-list.ts';

/**
 * Issue 9: no input makes the API answer 500. Every API route (listed from the built app, so
 * new routes are fuzzed too) gets arbitrary path parameters, query strings and JSON bodies, as
 * a signed-in owner, as staff and anonymously; any answer of 500 or more fails the test with
 * the request that caused it (fast-check shrinks it first). Bounded: FUZZ_RUNS cases per route
 * and role (default 8, a few seconds in all); FUZZ_SEED replays a run.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);

// Field names of the API's bodies and queries (src/domain/contract), so values reach the rules.
const FIELDS = [
  'email',
  'password',
  'newPassword',
  'recoveryCode',
  'code',
  'firstName',
  'lastName',
  'phone',
  'role',
  'name',
  'audience',
  'goal',
  'finalVideoLength',
  'brief',
  'status',
  'projectId',
  'assetId',
  'uploadType',
  'organizationId',
  'organizationName',
  'editor',
  'editorId',
  'link',
  'reviewLink',
  'assetsLink',
  'collaborationLink',
  'editorAssetsLink',
  'assetsPath',
  'trackingCode',
  'reviewPeriod',
  'credits',
  'creditsPerInterval',
  'interval',
  'startDate',
  'endDate',
  'renewable',
  'isEnabled',
  'storage',
  'key',
  'keys',
  'path',
  'size',
  'type',
  'section',
  'sort',
  'order',
  'limit',
  'start',
  'page',
  'search',
  'query',
  'token',
  'variant',
  'file',
  'download',
  'since',
  'kind',
  'url',
];

const TRICKY_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '𝔘𝔫𝔦',
  '%00',
  '../../etc/passwd',
  "' or 1=1 --",
  'x'.repeat(5_000),
  '2024-02-30',
  'null',
  '-1',
  '1e400',
];
const TRICKY_NUMBERS = [0, -1, 1.5, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER, 1e308, -1e308];

const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(...TRICKY_TEXT),
  fc.integer(),
  fc.constantFrom(...TRICKY_NUMBERS),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
);
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }) },
);
const fieldObject = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 7 });

const BRIEF = { name: 'Fuzz project', audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A short film.' };
const PERSON = { email: 'fuzz-person@example.com', firstName: 'Fuzz', lastName: 'Person', phone: '5551234' };

/**
 * A valid body per route (method and URL as listed), so mutations of one field at a time reach
 * the code past validation (the database, the storage) where a 500 would come from.
 */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  'POST /api/v1/login': { email: 'owner@demo.cutdesk.test', password: 'demo-password' },
  'POST /api/v1/register': { ...PERSON, password: 'secret123', code: 'cutdesk-web' },
  'PUT /api/v1/password-recover': { email: 'owner@demo.cutdesk.test' },
  'PUT /api/v1/password-recover-complete': { email: 'owner@demo.cutdesk.test', recoveryCode: 'abc', newPassword: 'secret123' },
  'POST /api/v1/organizations': { name: 'Fuzz Org' },
  'PATCH /api/v1/organizations/:id': { assetsLink: 'https://drive.example.com/a', trackingCode: 'TRACK-1', projectReviewPeriod: 5, state: 'APPROVED' },
  'PUT /api/v1/organizations/:id/credits': {
    startDate: '2026-01-01',
    endDate: '2026-12-31',
    renewable: true,
    credits: 5,
    interval: 1,
    creditsPerInterval: 1,
    storage: 1,
  },
  'POST /api/v1/organizations/:id/projects': BRIEF,
  'PATCH /api/v1/projects/:id': { ...BRIEF, reviewLink: 'https://review.example.com/r' },
  'PUT /api/v1/projects/:id/review_period': { reviewPeriod: 3 },
  'POST /api/v1/projects/:id/assign-editor': { editorId: 3 },
  'POST /api/v1/projects/:id/assets': { name: 'clip.mp4', path: 'projects/1/raw/assets/clip.mp4', type: 'video', size: 10 },
  'POST /api/v1/projects/:id/deliverable': { path: 'projects/1/final/', name: 'final.mp4' },
  'POST /api/v1/projects/:id/links': { name: 'clip.mp4', type: 'video', uploadType: 'assets' },
  'POST /api/v1/users': { ...PERSON, role: 'user' },
  'PATCH /api/v1/users/:id': { ...PERSON, role: 'user' },
  'PATCH /api/v1/users/:id/asset-path': { path: 'https://drive.example.com/x' },
  'PATCH /api/v1/users/:id/invite-link': {},
  'POST /api/v1/uploads/credentials': { projectId: 1, uploadType: 'asset' },
  'POST /api/v1/projects/:id/comments': {
    version: 1,
    frame: 12,
    endFrame: 24,
    text: 'Fuzz comment',
    drawing: { shapes: [{ kind: 'rectangle', color: 'red', x: 0.1, y: 0.1, width: 0.2, height: 0.2 }] },
  },
  'PATCH /api/v1/projects/:id/comments/:commentId': { text: 'Fuzz edit', resolved: true },
};

/** One example, with up to two of its fields replaced, spoiled with a NUL, dropped, or a field added. */
function mutatedExample(example: Record<string, unknown>) {
  const keys = Object.keys(example);
  const key = keys.length
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.constant('unexpected') })
    : fc.constant('unexpected');
  const mutation = fc.oneof(
    { weight: 2, arbitrary: fc.record({ op: fc.constant('set' as const), key, to: value }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('nul' as const), key, to: fc.constant(null) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('drop' as const), key, to: fc.constant(null) }) },
  );
  return fc.array(mutation, { minLength: 1, maxLength: 2 }).map((mutations) => {
    const out: Record<string, unknown> = { ...example };
    for (const { op, key, to } of mutations) {
      if (op === 'set') out[key] = to;
      else if (op === 'drop') delete out[key];
      else out[key] = `${typeof out[key] === 'string' ? (out[key] as string) : 'text'}\u0000`;
    }
    return { json: JSON.stringify(out) as string | undefined };
  });
}

/** A request body as sent on the wire: mostly JSON objects with the API's field names. */
const body = fc.oneof(
  { weight: 6, arbitrary: fieldObject.map((object) => ({ json: JSON.stringify(object) })) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json: JSON.stringify(json) })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '[',
        '{"a":',
        'nul',
        '"\\u0000"',
        '{"name":"a\\u0000"}',
        '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
        `${'['.repeat(5000)}${']'.repeat(5000)}`,
      )
      .map((json) => ({ json })),
  },
  { weight: 1, arbitrary: fc.constant({ json: undefined }) },
);

const queryString = fc
  .dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 6 })), fc.oneof(scalar.map(String), fc.constantFrom(...TRICKY_TEXT)), { maxKeys: 4 })
  .map((query) => new URLSearchParams(query).toString());

interface Role {
  name: string;
  headers: Record<string, string>;
}

interface Finding {
  role: string;
  method: string;
  url: string;
  body: string | undefined;
  status: number;
  answer: string;
}

describe('API fuzz', () => {
  let server: TestServer;
  let routes: ListedRoute[];
  let roles: Role[];
  let ids: string[];

  beforeAll(async () => {
    server = await startTestServer(null, { storage: true, env: { LOG_LEVEL: process.env.FUZZ_LOG ?? 'silent' } });
    routes = (await listRoutes(server.app)).filter((route) => route.url.startsWith('/api/') && route.method !== 'HEAD');
    roles = [
      { name: 'owner', headers: await signIn(server.app, 'owner@demo.cutdesk.test') },
      { name: 'staff', headers: await signIn(server.app, 'admin@demo.cutdesk.test') },
      { name: 'anonymous', headers: {} },
    ];
    // Real ids too, so arbitrary bodies reach the handlers past "not found".
    const db = server.db;
    const rows = [
      ...(await db.selectFrom('projects').select('id').limit(3).execute()),
      ...(await db.selectFrom('organizations').select('id').limit(3).execute()),
      ...(await db.selectFrom('users').select('id').limit(3).execute()),
    ];
    ids = [...new Set(rows.map((row) => String(row.id)))];
  });
  afterAll(async () => server?.close());

  it('lists the API routes it fuzzes, with a valid example body for those that take one', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toContainEqual({ method: 'POST', url: '/api/v1/login' });
    // An example naming a route that no longer exists would silently stop fuzzing it well.
    for (const key of Object.keys(EXAMPLES)) expect(routes.map((route) => `${route.method} ${route.url}`)).toContain(key);
  });

  it('never answers 500 or more, whatever the request', async () => {
    const pathParam = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...ids) },
      { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
      { weight: 1, arbitrary: fc.constantFrom('0', '-1', '1.5', '99999999999999999999', '2147483648', 'null', '%00', 'a%00b', '%2e%2e', '%ZZ') },
    );
    const findings: Finding[] = [];
    const statuses = new Map<number, number>();
    // Destructive routes last, so the others still find the data they need.
    const ordered = [...routes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const role of roles) {
      for (const route of ordered) {
        const params = (route.url.match(/:[A-Za-z]+|\*/g) ?? []).length;
        const example = EXAMPLES[`${route.method} ${route.url}`];
        const bodies = example ? fc.oneof({ weight: 4, arbitrary: mutatedExample(example) }, { weight: 1, arbitrary: body }) : body;
        const request = fc.record({ params: fc.array(pathParam, { minLength: params, maxLength: params }), query: queryString, body: bodies });
        await fc
          .assert(
            fc.asyncProperty(request, async ({ params: values, query, body: sent }) => {
              let index = 0;
              const path = route.url.replace(/:[A-Za-z]+|\*/g, () => values[index++] ?? '1');
              const url = query ? `${path}?${query}` : path;
              const withBody = route.method !== 'GET' && sent.json !== undefined;
              const response = await server.app.inject({
                method: route.method as 'GET',
                url,
                headers: { ...role.headers, ...(withBody && { 'content-type': 'application/json' }) },
                ...(withBody && { payload: sent.json }),
              });
              statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
              if (response.statusCode >= 500) {
                findings.push({
                  role: role.name,
                  method: route.method,
                  url: url.slice(0, 300),
                  body: sent.json?.slice(0, 300),
                  status: response.statusCode,
                  answer: response.body.slice(0, 200),
                });
                return false;
              }
              return true;
            }),
            { numRuns: RUNS, seed: SEED, endOnFailure: true },
          )
          .catch(() => undefined); // collected in findings, reported together below
      }
    }
    if (process.env.FUZZ_STATS) console.log(Object.fromEntries(statuses));
    expect(findings, `FUZZ_SEED=${SEED}\n${JSON.stringify(findings, null, 1)}`).toEqual([]);
  }, 120_000);
});
