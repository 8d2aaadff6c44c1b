import { sql } from 'kysely';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hearPoolChanges } from '../../server/db/connect.ts';
import { CHANGES_CHANNEL, listenPostgres } from '../../server/db/listen.ts';
import type { UserRow } from '../../server/db/schema.ts';
import { REMEMBERED_MAX_AGE_MS, RememberedRows } from '../../server/services/remembered-rows.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 34, "board at 50 connections": the session's user and the board's version are answered
 * from memory while the database says they are unchanged (migration 0023's notices), and never
 * older than an announced write. A write made with the triggers off (a restore with
 * `--disable-triggers`, `session_replication_role = replica`) announces nothing: what a request
 * answers after one tells whether it read the row or took it from memory.
 */
describe.each(DATABASES)('rows kept in memory on $name', ({ name, url }) => {
  let server: TestServer;
  let owner: { authorization: string };
  let admin: { authorization: string };
  let ownerId: number;

  beforeAll(async () => {
    server = await startTestServer(url);
    owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    ownerId = (await server.db.selectFrom('users').select('id').where('email', '=', 'owner@demo.cutdesk.test').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => server?.close());

  const me = async (who = owner) => (await server.app.inject({ method: 'GET', url: '/api/v1/me', headers: who })).statusCode;
  /** A write the database does not announce. */
  const unannounced = (statement: ReturnType<typeof sql>) =>
    server.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await statement.execute(trx);
    });
  const setEnabled = (enabled: boolean) => sql`update users set is_enabled = ${enabled} where id = ${ownerId}`;

  it('answers a session from memory while its user is unchanged, and refuses it in the next request once a change is announced', async () => {
    expect(await me()).toBe(200);
    await unannounced(setEnabled(false));
    // Not read again: memory still says the owner is enabled.
    expect(await me()).toBe(200);
    // Any announced write of the row drops it: the next request reads the disabled owner.
    await sql`update users set phone = phone where id = ${ownerId}`.execute(server.db);
    expect(await me()).toBe(401);
    await setEnabled(true).execute(server.db);
    expect(await me()).toBe(200);
  });

  it('keeps nothing of a write that rolled back, and drops the row of one that committed in a transaction', async () => {
    expect(await me()).toBe(200);
    await expect(
      server.db.transaction().execute(async (trx) => {
        await setEnabled(false).execute(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await me()).toBe(200);
    await server.db.transaction().execute(async (trx) => void (await setEnabled(false).execute(trx)));
    expect(await me()).toBe(401);
    await setEnabled(true).execute(server.db);
    expect(await me()).toBe(200);
  });

  it('answers the board with the version in memory, and reads it again once a board write is announced', async () => {
    const board = async () => {
      const response = await server.app.inject({ method: 'GET', url: '/api/v1/projects?active=true&sort=name&order=asc&limit=200', headers: admin });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { projects: { id: number; name: string }[] } }>().data.projects;
    };
    const [row] = await board();
    // A write whose notice never came: the stored version moved, the memory's did not, so the page is answered as kept.
    await unannounced(sql`update projects set name = 'Renamed unannounced' where id = ${row!.id}`);
    await unannounced(sql`update board_version set version = version + 1`);
    expect((await board()).find((project) => project.id === row!.id)?.name).toBe(row!.name);
    // An announced write: the next request reads the version, then the page.
    await sql`update projects set brief = brief where id = ${row!.id}`.execute(server.db);
    expect((await board()).find((project) => project.id === row!.id)?.name).toBe('Renamed unannounced');
    await sql`update projects set name = ${row!.name} where id = ${row!.id}`.execute(server.db);
  });

  it.skipIf(name === 'PGlite')("hears a write made through this instance's pool before the write returns (no request can come between)", async () => {
    const heard: string[] = [];
    const stop = hearPoolChanges(server.db, (payload) => heard.push(payload));
    try {
      for (let round = 0; round < 20; round++) {
        await sql`update users set phone = phone where id = ${ownerId}`.execute(server.db);
        expect(heard).toContain(`user:${ownerId}`);
        heard.length = 0;
        await server.db.transaction().execute(async (trx) => void (await sql`update board_version set version = version + 1`.execute(trx)));
        expect(heard).toEqual(['board']);
        heard.length = 0;
      }
    } finally {
      stop();
    }
  });

  it.skipIf(name === 'PGlite')('keeps nothing while its listener is away, and keeps again once it is back', async () => {
    expect(await me()).toBe(200);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'cutdesk-changes' and datname = current_database()`.execute(
      server.db,
    );
    await vi.waitFor(() => expect(server.app.remembered.isListening).toBe(false));
    expect(server.app.remembered.size.users).toBe(0);
    // What an operator's alert reads.
    expect((await server.app.inject({ method: 'GET', url: '/metrics' })).body).toContain('cutdesk_remembered_rows_listening 0');
    // Every request reads meanwhile: an unannounced write is seen at once.
    await unannounced(setEnabled(false));
    expect(await me()).toBe(401);
    await unannounced(setEnabled(true));
    expect(await me()).toBe(200);
    await vi.waitFor(() => expect(server.app.remembered.isListening).toBe(true), { timeout: 10_000 });
    expect(await me()).toBe(200);
    await unannounced(setEnabled(false));
    expect(await me()).toBe(200);
    await setEnabled(true).execute(server.db);
  });

  it.skipIf(name === 'PGlite')('notices a listener cut off without a word (its heartbeat goes unanswered) and listens again', async () => {
    // A proxy in front of PostgreSQL that can go silent, as a NAT that forgot the connection does.
    let silent = false;
    const sockets: Socket[] = [];
    const target = new URL(server.config.databaseUrl!);
    const proxy = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      sockets.push(client, upstream);
      client.on('data', (data) => void (silent || upstream.write(data)));
      upstream.on('data', (data) => void (silent || client.write(data)));
      for (const socket of [client, upstream]) socket.on('error', () => undefined);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const proxied = new URL(target);
    proxied.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const events: string[] = [];
    const listener = await listenPostgres(
      proxied.toString(),
      CHANGES_CHANNEL,
      'cutdesk-heartbeat-test',
      {
        heard: (payload) => events.push(payload),
        listening: (again) => events.push(again ? 'listening again' : 'listening'),
        lost: () => events.push('lost'),
        warn: () => undefined,
      },
      { everyMs: 100, timeoutMs: 300 },
    );
    try {
      expect(events).toEqual(['listening']);
      silent = true;
      await vi.waitFor(() => expect(events).toContain('lost'), { timeout: 10_000 });
      silent = false;
      await vi.waitFor(() => expect(events).toContain('listening again'), { timeout: 10_000 });
      await sql`update users set phone = phone where id = ${ownerId}`.execute(server.db);
      await vi.waitFor(() => expect(events).toContain(`user:${ownerId}`));
    } finally {
      await listener.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => proxy.close(done));
    }
  });

  it.skipIf(name === 'PGlite')('hears a write made through another connection (another instance, psql) and refuses the session', async () => {
    expect(await me()).toBe(200);
    const other = new pg.Client({ connectionString: server.config.databaseUrl! });
    await other.connect();
    try {
      await other.query('update users set is_enabled = false where id = $1', [ownerId]);
      await vi.waitFor(async () => expect(await me()).toBe(401));
      await other.query('update users set is_enabled = true where id = $1', [ownerId]);
      await vi.waitFor(async () => expect(await me()).toBe(200));
    } finally {
      await other.end();
    }
  });
});

describe('RememberedRows', () => {
  const row = (id: number) => ({ id, isEnabled: true }) as unknown as UserRow;

  it('does not keep a row read while a change was heard (the read may predate the change)', async () => {
    const remembered = new RememberedRows();
    remembered.listening(true);
    let finish!: (value: UserRow) => void;
    const reading = remembered.user(1, () => new Promise<UserRow>((resolve) => (finish = resolve)));
    remembered.heard('user:1');
    finish(row(1));
    await reading;
    let reads = 0;
    await remembered.user(1, async () => (reads++, row(1)));
    await remembered.user(1, async () => (reads++, row(1)));
    expect(reads).toBe(1);
  });

  it('keeps nothing before it listens or after it stopped, and ignores what is not its own', async () => {
    const remembered = new RememberedRows();
    let reads = 0;
    const read = async () => (reads++, row(2));
    await remembered.user(2, read);
    await remembered.user(2, read);
    expect(reads).toBe(2);
    remembered.listening(true);
    await remembered.user(2, read);
    remembered.heard('user:2; drop table users');
    remembered.heard('user:-2');
    await remembered.user(2, read);
    expect(reads).toBe(3);
    remembered.listening(false);
    await remembered.user(2, read);
    expect(reads).toBe(4);
  });

  it('reads a kept row again after its maximum age, for a notice that never came', async () => {
    let now = 1_000_000;
    const remembered = new RememberedRows(() => now);
    remembered.listening(true);
    let reads = 0;
    const read = async () => (reads++, row(4));
    await remembered.user(4, read);
    now += REMEMBERED_MAX_AGE_MS - 1;
    await remembered.user(4, read);
    expect(reads).toBe(1);
    now += 1;
    await remembered.user(4, read);
    expect(reads).toBe(2);
    let versions = 0;
    const version = async () => `v${++versions}`;
    expect(await remembered.boardVersion(version)).toBe('v1');
    expect(await remembered.boardVersion(version)).toBe('v1');
    now += REMEMBERED_MAX_AGE_MS;
    expect(await remembered.boardVersion(version)).toBe('v2');
  });

  it('shares frozen rows: a request cannot change what the next one sees', async () => {
    const remembered = new RememberedRows();
    remembered.listening(true);
    const kept = await remembered.user(3, async () => row(3));
    expect(Object.isFrozen(kept)).toBe(true);
  });
});
