import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { enums, object, optional, string, type Infer } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineOperation } from '../../src/domain/contract/define.ts';
import { route } from '../../server/routes/operation-route.ts';

/**
 * server/routes/operation-route.ts: what a handler answers goes out once, with the operation's
 * status, whether it returns a value, nothing, or the reply it sent itself (a reply is a
 * thenable, so an awaited handler that returns it resolves to undefined once it is sent).
 */

const Answer = object({ name: string() });
const readThing = defineOperation({ method: 'GET', path: '/things/{id}', access: 'public', answer: Answer });
const makeThing = defineOperation({ method: 'POST', path: '/things', access: 'public', body: Answer, answer: Answer, status: 201 });
const forgetThing = defineOperation({ method: 'DELETE', path: '/things/{id}', access: 'public' });
const streamThing = defineOperation({ method: 'GET', path: '/things/{id}/file', access: 'public' });
const SortQuery = object({ sort: optional(enums(['name', 'date'])) });
const SortAnswer = object({ sort: string() });
const searchThings = defineOperation({ method: 'GET', path: '/things/search', access: 'public', query: SortQuery, answer: SortAnswer });
const listThings = defineOperation({ method: 'GET', path: '/things', access: 'public', query: SortQuery, answer: SortAnswer });

describe('route() of an operation', () => {
  const logged: { level: number; msg: string }[] = [];
  const app = Fastify({
    logger: {
      level: 'info',
      stream: new Writable({
        write(chunk, _encoding, done) {
          logged.push(JSON.parse(String(chunk)) as { level: number; msg: string });
          done();
        },
      }),
    },
  });

  beforeAll(async () => {
    route(app, readThing, async ({ params }) => ({ name: `thing ${params.id}` }));
    route(app, makeThing, async ({ body }) => ({ name: body.name }));
    route(app, forgetThing, async () => undefined);
    route(app, streamThing, async (_, __, reply) => reply.type('text/plain').send('bytes'));
    // The sort the handler got, and whether the parsed query was a kept (frozen) one.
    const sortSeen = async ({ query }: { query: Infer<typeof SortQuery> }) => ({ sort: `${query.sort ?? 'none'}${Object.isFrozen(query) ? ', shared' : ''}` });
    route(app, listThings, sortSeen, { keepParsedQueries: true });
    route(app, searchThings, sortSeen);
    await app.ready();
  });
  afterAll(() => app.close());

  it('sends a value with 200, a creation with its 201, nothing with 204, and a reply the handler sent as it is', async () => {
    expect((await app.inject({ method: 'GET', url: '/things/7' })).json()).toEqual({ name: 'thing 7' });
    const made = await app.inject({ method: 'POST', url: '/things', payload: { name: 'new' } });
    expect([made.statusCode, made.json()]).toEqual([201, { name: 'new' }]);
    expect((await app.inject({ method: 'DELETE', url: '/things/7' })).statusCode).toBe(204);
    const streamed = await app.inject({ method: 'GET', url: '/things/7/file' });
    expect([streamed.statusCode, streamed.body]).toEqual([200, 'bytes']);
    // Nothing sent twice: no "Reply was already sent" warning or error for any of them.
    await new Promise((done) => setImmediate(done));
    expect(logged.filter((line) => line.level >= 40).map((line) => line.msg)).toEqual([]);
  });

  it('answers 404 for an id that cannot name a row and 400 for a body its struct refuses, before the handler', async () => {
    expect((await app.inject({ method: 'GET', url: '/things/0' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/things/abc' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/things', payload: { name: 5 } })).statusCode).toBe(400);
  });

  it('keeps no parsed query of a route that does not ask for it (a ticket or a token in a query stays out of memory)', async () => {
    const response = await app.inject({ method: 'GET', url: '/things/search?sort=date' });
    expect(response.json()).toEqual({ sort: 'date' });
  });

  it('keeps a query under what the router parsed: a `#` sent on the wire cannot put one query under another', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    // Raw, as an attacker sends it: a client library would drop what follows `#`.
    const raw = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const answered = await raw('/things#sort=date');
    expect(answered).toMatch(/^HTTP\/1\.1 200/);
    expect(answered).toContain('"sort":"date, shared"');
    expect(await raw('/things?sort=name#sort=date')).toMatch(/^HTTP\/1\.1 400/);
    expect((await app.inject({ method: 'GET', url: '/things' })).json()).toEqual({ sort: 'none, shared' });
    expect((await app.inject({ method: 'GET', url: '/things?sort=name' })).json()).toEqual({ sort: 'name, shared' });
  });

  it("parses a GET's query once per query string, shares it frozen, and refuses a bad one every time", async () => {
    const sort = async (url: string) => {
      const response = await app.inject({ method: 'GET', url });
      return response.statusCode === 200 ? response.json<{ sort: string }>().sort : response.statusCode;
    };
    expect(await sort('/things?sort=date')).toBe('date, shared');
    expect(await sort('/things?sort=date')).toBe('date, shared');
    expect(await sort('/things?sort=nope')).toBe(400);
    expect(await sort('/things?sort=nope')).toBe(400);
    expect(await sort('/things?sort=name')).toBe('name, shared');
    expect(await sort('/things')).toBe('none, shared');
  });
});
