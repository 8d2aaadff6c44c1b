import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES, MAX_JSON_DEPTH, jsonTextProblem, storableTextRule } from '../../src/domain/validation.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 9: input PostgreSQL refuses (NUL in text) or that overflows the stack (JSON nested
 * thousands of levels deep) used to answer 500. Both are refused with a 400 in one place: the
 * API's JSON parser (and, for paths and query strings, the same rule before routing).
 */

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('the text rules (src/domain/validation.ts)', () => {
  it('finds NUL in strings, escaped or raw, and nowhere else', () => {
    expect(jsonTextProblem('{"name":"a\\u0000b"}')).toBe(FIELD_MESSAGES.textNul);
    expect(jsonTextProblem('{"a\\u0000":1}')).toBe(FIELD_MESSAGES.textNul);
    expect(jsonTextProblem('{"name":"a\u0000b"}')).toBe(FIELD_MESSAGES.textNul);
    // An escaped backslash followed by "u0000" is text, not a NUL.
    expect(jsonTextProblem('{"name":"\\\\u0000"}')).toBeUndefined();
    expect(jsonTextProblem('{"name":"\\u00001"}')).toBe(FIELD_MESSAGES.textNul);
    expect(jsonTextProblem('{"name":"\\u0001 ok"}')).toBeUndefined();
    expect(storableTextRule('a\u0000')).toBe(FIELD_MESSAGES.textNul);
    expect(storableTextRule('fine')).toBeUndefined();
  });

  it('finds a lone UTF-16 surrogate, escaped or raw, and lets real pairs through', () => {
    expect(jsonTextProblem('{"name":"A\\ud800B"}')).toBe(FIELD_MESSAGES.textIllFormed);
    expect(jsonTextProblem('{"name":"A\\udc00"}')).toBe(FIELD_MESSAGES.textIllFormed);
    expect(jsonTextProblem('{"name":"\\ud83d\\ude00 ok"}')).toBeUndefined();
    expect(jsonTextProblem('{"name":"\\ud83d\\u0041"}')).toBe(FIELD_MESSAGES.textIllFormed);
    expect(jsonTextProblem('{"name":"\\\\ud800"}')).toBeUndefined(); // an escaped backslash, then text
    expect(jsonTextProblem('{"name":"A\ud800B"}')).toBe(FIELD_MESSAGES.textIllFormed);
    expect(jsonTextProblem(JSON.stringify({ name: 'emoji 😀 fine' }))).toBeUndefined();
    expect(storableTextRule('A\ud800')).toBe(FIELD_MESSAGES.textIllFormed);
  });

  it('measures nesting without recursion, ignoring brackets inside strings', () => {
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH + 1))).toBe(FIELD_MESSAGES.jsonTooDeep);
    expect(jsonTextProblem(nested(1_000_000))).toBe(FIELD_MESSAGES.jsonTooDeep);
    expect(jsonTextProblem(JSON.stringify({ brief: '['.repeat(10_000) }))).toBeUndefined();
    expect(jsonTextProblem(JSON.stringify({ brief: '"\\[[[' }))).toBeUndefined();
  });
});

describe.each(DATABASES)('bad input on $name', ({ url }) => {
  let server: TestServer;
  let owner: Record<string, string>;
  let projectId: number;
  beforeAll(async () => {
    server = await startTestServer(url);
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    projectId = (await server.db.selectFrom('projects').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => server?.close());

  const send = (method: 'POST' | 'PATCH' | 'PUT' | 'GET', path: string, payload?: string, headers: Record<string, string> = {}) =>
    server.app.inject({
      method,
      url: `/api/v1${path}`,
      headers: { ...headers, ...(payload !== undefined && { 'content-type': 'application/json' }) },
      ...(payload !== undefined && { payload }),
    });

  it('answers 400 to a NUL in any text field of a body', async () => {
    const registered = await send(
      'POST',
      '/register',
      JSON.stringify({ email: 'nul@example.com', password: 'secret123', firstName: 'No\u0000ra', lastName: 'New', phone: '5551234' }),
    );
    expect(registered.statusCode).toBe(400);
    expect(registered.json().message).toBe(FIELD_MESSAGES.textNul);
    const patched = await send('PATCH', `/projects/${projectId}`, JSON.stringify({ brief: 'a brief\u0000' }), owner);
    expect(patched.statusCode).toBe(400);
    const login = await send('POST', '/login', JSON.stringify({ email: 'owner@demo.cutdesk.test', password: 'x\u0000' }));
    expect(login.statusCode).toBe(400);
  });

  it('answers 400 to a lone surrogate in a body (PostgreSQL refuses it in text and jsonb)', async () => {
    const patched = await send('PATCH', `/projects/${projectId}`, '{"brief":"a brief \\ud800 here"}', owner);
    expect(patched.statusCode).toBe(400);
    expect(patched.json().message).toBe(FIELD_MESSAGES.textIllFormed);
    const registered = await send(
      'POST',
      '/register',
      '{"email":"s@example.com","password":"secret123","firstName":"A\\udc00","lastName":"B","phone":"5551234"}',
    );
    expect(registered.statusCode).toBe(400);
  });

  it('answers 400 to a NUL in a path parameter or a query value', async () => {
    expect((await send('GET', `/projects/1%00`, undefined, owner)).statusCode).toBe(400);
    expect((await send('GET', `/projects?search=a%00b`, undefined, owner)).statusCode).toBe(400);
    expect((await send('GET', `/projects/${projectId}/assets/check-name?name=a%00.mp4`, undefined, owner)).statusCode).toBe(400);
  });

  it('answers 400 to JSON nested thousands of levels deep (checked in one pass before parsing)', async () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 5_000, 100_000]) {
      const response = await send('POST', '/login', `{"email":${nested(depth)}}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(FIELD_MESSAGES.jsonTooDeep);
    }
  });

  it('answers 400 to a value that cannot be printed (an object whose toString is not a function), never a 500', async () => {
    // The fuzz test's find (FUZZ_SEED=633363213): superstruct prints a failing value with a template string.
    const unprintable = JSON.stringify({ size: { toString: 9007199254740991 }, name: 1.5, uploadType: 'x' });
    for (const [method, path] of [
      ['PATCH', '/me/review-mail'],
      ['POST', '/uploads/refusals'],
      ['PATCH', `/projects/${projectId}`],
      ['POST', '/login'],
    ] as const) {
      const answer = await send(method, path, unprintable, owner);
      expect(answer.statusCode, `${method} ${path}`).toBe(400);
    }
    expect(
      (await send('GET', `/dashboard?after=${Buffer.from(JSON.stringify({ tab: { toString: 1 } })).toString('base64url')}`, undefined, owner)).statusCode,
    ).toBeLessThan(500);
  });

  it('still parses ordinary bodies and refuses prototype poisoning', async () => {
    expect((await send('POST', '/login', JSON.stringify({ email: 'owner@demo.cutdesk.test', password: 'demo-password' }))).statusCode).toBe(200);
    expect((await send('POST', '/login', '{"__proto__":{"admin":true},"email":"a@b.co","password":"x"}')).statusCode).toBe(400);
    expect((await send('POST', '/login', '{bad')).statusCode).toBe(400);
  });
});
