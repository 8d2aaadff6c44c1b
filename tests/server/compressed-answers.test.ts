import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_JSON_FROM_BYTES } from '../../server/prepared-answer.ts';
import { signIn, startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 14 "compressed JSON for large API answers": a large JSON answer leaves as brotli or gzip
 * when the client takes it, plain otherwise, and says it varies by Accept-Encoding; small answers,
 * event streams and request bodies are left as they are. The staff board's pages (kept in memory)
 * are compressed once and decode to the same JSON.
 */
describe('large API answers are sent compressed', () => {
  let server: TestServer;
  let admin: { authorization: string };

  beforeAll(async () => {
    server = await startTestServer(null);
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    // Enough projects and editors for answers past the threshold.
    await sql`insert into projects (organization_id, user_id, name, status)
      select organization_id, user_id, 'Compressed board project ' || n, 'WAITING_FOR_EDITOR' from projects, generate_series(1, 120) n
      where projects.id = (select min(id) from projects)`.execute(server.db);
    await sql`insert into users (email, first_name, last_name, role)
      select 'editor' || n || '@compressed.test', 'Editor', 'Number ' || n, 'EDITOR' from generate_series(1, 60) n`.execute(server.db);
  });
  afterAll(async () => server?.close());

  const get = (url: string, encoding?: string) =>
    server.app.inject({ method: 'GET', url, headers: { ...admin, ...(encoding ? { 'accept-encoding': encoding } : {}) } });

  function decoded(response: Awaited<ReturnType<typeof get>>): unknown {
    const encoding = response.headers['content-encoding'];
    const body = encoding === 'br' ? brotliDecompressSync(response.rawPayload) : encoding === 'gzip' ? gunzipSync(response.rawPayload) : response.rawPayload;
    return JSON.parse(body.toString('utf8'));
  }

  it.each([
    ['the staff board (kept in memory)', '/api/v1/projects?active=true&sort=name&order=asc&limit=200'],
    ['the editors list', '/api/v1/users?role=editor&limit=100'],
    ['the API reference (public, compressed once)', '/api/v1/openapi.json'],
  ])('%s: brotli or gzip as accepted, the same JSON as the plain answer', async (_name, url) => {
    const plain = await get(url);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_JSON_FROM_BYTES);
    const json = plain.json();
    for (const [accepts, expected] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
    ] as const) {
      // Twice: the board's second answer comes from memory, compressed once.
      for (let i = 0; i < 2; i++) {
        const response = await get(url, accepts);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBe(expected);
        expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
        expect(decoded(response)).toEqual(json);
      }
    }
    expect((await get(url, 'identity')).headers['content-encoding']).toBeUndefined();
  });

  it('leaves small answers plain', async () => {
    const response = await get('/api/v1/me', 'br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toMatchObject({ email: 'admin@demo.cutdesk.test' });
  });

  it('reads a request body as sent: a gzip-encoded body is not inflated past the body limits', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email: 'admin@demo.cutdesk.test', password: 'demo-password' })),
    });
    // Inflated, it would sign in; read as sent, it is not JSON.
    expect(response.statusCode).toBe(400);
  });
});
