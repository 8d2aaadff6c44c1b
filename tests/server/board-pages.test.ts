import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardRowStruct, type DashboardRow } from '../../src/domain/contract/projects.ts';
import { boardPages as keptPages, OTHER_PAGE_MS, TIMER_PAGE_MS, type BoardPage } from '../../server/services/board-pages.ts';
import { dashboardPage } from '../../server/services/dashboard.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 14: pages of the staff board are answered from memory while the board is unchanged.
 * What staff depend on: the board never shows less than what was written before they asked —
 * on this instance or any other, through the API or not, names and deletions included — and a
 * page in timer order follows the clock.
 */
describe.each(DATABASES)('the staff board answered from memory on $name', ({ url }) => {
  let server: TestServer;
  let admin: { authorization: string };
  const ALL = { active: true, sort: 'name', order: 'asc', limit: 200 } as const;

  beforeAll(async () => {
    server = await startTestServer(url);
    admin = await signIn(server.app, 'admin@demo.cutdesk.test');
  });
  afterAll(async () => server?.close());

  async function board(query = 'active=true&sort=name&order=asc&limit=200'): Promise<DashboardRow[]> {
    const response = await server.app.inject({ method: 'GET', url: `/api/v1/projects?${query}`, headers: admin });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { projects: DashboardRow[] } }>().data.projects;
  }

  const fresh = async () => (await dashboardPage(server.db, ALL)).projects;
  /** The board's version number as stored. */
  const counter = async () => BigInt((await sql<{ version: string }>`select version::text as version from board_version`.execute(server.db)).rows[0]!.version);

  /** The service as the route uses it, keeping the page as read. */
  function boardPages(now?: () => number) {
    const pages = keptPages<BoardPage>(now);
    return {
      page: async (db: TestServer['db'], query: Parameters<typeof pages.page>[1]) => {
        const { answer, fromMemory } = await pages.page(db, query, (page) => page);
        return { page: answer, fromMemory };
      },
    };
  }

  it('answers a page again from memory, the same as a fresh read, until the board changes', async () => {
    const pages = boardPages();
    const first = await pages.page(server.db, ALL);
    const second = await pages.page(server.db, ALL);
    expect(first.fromMemory).toBe(false);
    expect(second.fromMemory).toBe(true);
    expect(second.page).toEqual(await dashboardPage(server.db, ALL));
    const [row] = second.page.projects;
    await sql`update projects set name = ${`${row!.name} (renamed)`} where id = ${row!.id}`.execute(server.db);
    const third = await pages.page(server.db, ALL);
    expect(third.fromMemory).toBe(false);
    expect(third.page.projects.find((p) => p.id === row!.id)?.name).toBe(`${row!.name} (renamed)`);
  });

  it('shows every kind of write the board shows in the next request, whoever made it', async () => {
    await board();
    await board();
    // A project changed through the API (an editor assigned)…
    const target = (await board()).find((p) => p.editor === null && p.status.name === 'WAITING_FOR_EDITOR')!;
    const editor = await server.db.selectFrom('users').select(['id', 'firstName']).where('role', '=', 'EDITOR').executeTakeFirstOrThrow();
    const assigned = await server.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${target.id}/assign-editor`,
      headers: admin,
      payload: { editorId: editor.id },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect((await board()).find((p) => p.id === target.id)?.editor?.id).toBe(editor.id);
    // …an editor's name and picture, written with no event published (another instance, a script)…
    await sql`update users set first_name = 'Renamed', profile_picture_url = 'https://example.test/p.png' where id = ${editor.id}`.execute(server.db);
    const edited = (await board()).find((p) => p.id === target.id)!.editor!;
    expect(edited).toMatchObject({ firstName: 'Renamed', profilePictureUrl: 'https://example.test/p.png' });
    // …an organization's name…
    await sql`update organizations set name = 'Renamed Studio' where id = ${target.organization.id}`.execute(server.db);
    expect((await board()).find((p) => p.id === target.id)?.organization.name).toBe('Renamed Studio');
    // …a project added and one removed…
    const added = await sql<{ id: number }>`
      insert into projects (organization_id, user_id, name, status) select organization_id, user_id, 'Added behind the API', 'WAITING_FOR_EDITOR' from projects where id = ${target.id} returning id`.execute(
      server.db,
    );
    expect((await board()).some((p) => p.id === added.rows[0]!.id)).toBe(true);
    await sql`delete from projects where id = ${added.rows[0]!.id}`.execute(server.db);
    expect((await board()).some((p) => p.id === added.rows[0]!.id)).toBe(false);
    // …and an organization deleted: its projects leave the board at once.
    await sql`update organizations set deleted_at = now() where id = ${target.organization.id}`.execute(server.db);
    expect((await board()).some((p) => p.organization.id === target.organization.id)).toBe(false);
    await sql`update organizations set deleted_at = null where id = ${target.organization.id}`.execute(server.db);
    expect(await board()).toEqual(await fresh());
  });

  it('moves the version once per committed transaction, never for a rolled-back one or a column the board does not show', async () => {
    const before = await counter();
    await server.db.transaction().execute(async (trx) => {
      await sql`update projects set brief = brief || ' ' where id in (select id from projects limit 3)`.execute(trx);
      await sql`update organizations set name = name where id in (select id from organizations limit 2)`.execute(trx);
    });
    expect(await counter()).toBe(before + 1n);
    await expect(
      server.db.transaction().execute(async (trx) => {
        await sql`update projects set name = 'never' where id in (select id from projects limit 1)`.execute(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // Signing in writes to users, not to what the board shows of them.
    await sql`update users set phone = '+1 555 0100' where id in (select id from users limit 1)`.execute(server.db);
    expect(await counter()).toBe(before + 1n);
  });

  it('keeps two instances right: a write through one shows on the other at once', async () => {
    const one = boardPages();
    const other = boardPages();
    await one.page(server.db, ALL);
    await other.page(server.db, ALL);
    const [row] = (await one.page(server.db, ALL)).page.projects;
    await sql`update projects set name = 'Written on the other instance' where id = ${row!.id}`.execute(server.db);
    for (const pages of [one, other]) {
      const answer = await pages.page(server.db, ALL);
      expect(answer.fromMemory).toBe(false);
      expect(answer.page.projects.find((p) => p.id === row!.id)?.name).toBe('Written on the other instance');
    }
  });

  it('shares one read between requests that miss together', async () => {
    const pages = boardPages();
    const [a, b] = await Promise.all([pages.page(server.db, ALL), pages.page(server.db, ALL)]);
    // One of them reads, the other is given its page: which one reads depends on which board
    // version read the pool answers first (CI once answered the second request's first).
    expect([a.fromMemory, b.fromMemory].sort()).toEqual([false, true]);
    expect(b.page).toBe(a.page);
  });

  it('answers a page in timer order again only within the clock step, other orders while the board stands', async () => {
    let now = 1_000_000;
    const pages = boardPages(() => now);
    const timer = { active: true, sort: 'timer', order: 'asc', limit: 30 } as const;
    await pages.page(server.db, timer);
    await pages.page(server.db, ALL);
    now += TIMER_PAGE_MS - 1;
    expect((await pages.page(server.db, timer)).fromMemory).toBe(true);
    now += 1;
    expect((await pages.page(server.db, timer)).fromMemory).toBe(false);
    now += OTHER_PAGE_MS - 1 - TIMER_PAGE_MS;
    expect((await pages.page(server.db, ALL)).fromMemory).toBe(true);
    // The backstop for writes made with triggers off: read again after OTHER_PAGE_MS anyway.
    now += 1;
    expect((await pages.page(server.db, ALL)).fromMemory).toBe(false);
  });

  it('cannot be switched off or fooled: a setting left in the session, a row put back, a row missing', async () => {
    const pages = boardPages();
    await pages.page(server.db, ALL);
    // Someone's `set cutdesk.board_bumped` does not stop the bump.
    const [row] = (await pages.page(server.db, ALL)).page.projects;
    await server.db.transaction().execute(async (trx) => {
      await sql`set local cutdesk.board_bumped = 'on'`.execute(trx);
      await sql`update projects set name = 'Renamed with the flag set' where id = ${row!.id}`.execute(trx);
    });
    const flagged = await pages.page(server.db, ALL);
    expect(flagged.fromMemory).toBe(false);
    expect(flagged.page.projects.find((p) => p.id === row!.id)?.name).toBe('Renamed with the flag set');
    // The row put back with the same number (a restore, a copy) is another version.
    await pages.page(server.db, ALL);
    const number = await counter();
    await sql`delete from board_version`.execute(server.db);
    // Without its row nothing is answered from memory, and the board still answers.
    expect((await pages.page(server.db, ALL)).fromMemory).toBe(false);
    expect((await pages.page(server.db, ALL)).fromMemory).toBe(false);
    expect(await board()).toEqual(await fresh());
    await sql`insert into board_version (id, version) values (true, ${String(number)})`.execute(server.db);
    expect((await pages.page(server.db, ALL)).fromMemory).toBe(false);
    expect((await pages.page(server.db, ALL)).fromMemory).toBe(true);
  });

  it('keeps no media links: board rows carry none (a kept page is shared by every session, links are per session)', () => {
    for (const field of ['finalVideoPreview', 'finalVideoThumbnail', 'hdUrl', 'lowResUrl']) expect(Object.keys(DashboardRowStruct.schema)).not.toContain(field);
  });

  it('keeps nothing of a refused query: a bad cursor is a 400 each time, and the page after it is right', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await server.app.inject({ method: 'GET', url: '/api/v1/projects?active=true&sort=name&after=not-a-cursor', headers: admin });
      expect(response.statusCode).toBe(400);
    }
    expect(await board()).toEqual(await fresh());
  });

  it('is staff only, as before', async () => {
    const owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    await board();
    const response = await server.app.inject({ method: 'GET', url: '/api/v1/projects?active=true&sort=name&order=asc&limit=200', headers: owner });
    expect(response.statusCode).toBe(403);
  });

  it('reads no column of an organization or an editor that the board version does not watch (migrations 0017, 0022)', async () => {
    // What the board reads: every `o.` (organization) and `e.` (editor) column its repository names.
    const source = readFileSync(new URL('../../server/repositories/dashboard.ts', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line))
      .join('\n');
    const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const read = { organizations: new Set<string>(), users: new Set<string>() };
    for (const [, alias, column] of source.matchAll(/\b([oe])\.([a-zA-Z_]+)\b/g)) read[alias === 'o' ? 'organizations' : 'users'].add(snake(column!));
    expect([...read.organizations]).toContain('name');
    expect([...read.users]).toContain('first_name');
    // What moves the version: the columns each table's trigger fires on (none listed: every column).
    const triggers = await sql<{ table: string; columns: string[] }>`
      select c.relname as table, array(select a.attname::text from unnest(t.tgattr::int2[]) as k(n) join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = k.n) as columns
      from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = c.relname || '_board_version'`.execute(server.db);
    const watched = new Map(triggers.rows.map((row) => [row.table, row.columns]));
    expect(watched.get('projects'), 'every column of projects').toEqual([]);
    for (const table of ['organizations', 'users'] as const) {
      // The join key is the row's id, which no write changes.
      const unwatched = [...read[table]].filter((column) => column !== 'id' && !watched.get(table)!.includes(column));
      expect(unwatched, `${table}: the board reads these, the version does not watch them`).toEqual([]);
    }
  });
});
