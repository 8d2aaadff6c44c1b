import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, migrator } from '../../server/migrations/index.ts';
import { DATABASES, startTestServer, type TestServer } from './harness.ts';

/** Migration 0016 queues one checksum per object already registered, after all other media work. */
describe.each(DATABASES)('asset checksums migration on $name', ({ url }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(url);
  });
  afterAll(async () => server?.close());

  it('backfills one job per live object, behind every other kind of work, and goes down cleanly', async () => {
    const down = await migrator(server.db).migrateTo('0015-share-links');
    expect(down.error).toBeUndefined();
    const project = (await server.db.selectFrom('projects').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const other = (await server.db.selectFrom('projects').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    // One object shared by a project and its copy, one of its own, one deleted.
    await sql`insert into assets (project_id, name, size, type, path) values
      (${project}, 'a.mov', 10, 'INTERVIEW_CLIP', 'm16/a.mov'),
      (${other}, 'a.mov', 10, 'INTERVIEW_CLIP', 'm16/a.mov'),
      (${project}, 'b.mov', 20, 'BROLL_CLIP', 'm16/b.mov')`.execute(server.db);
    await sql`insert into assets (project_id, name, size, type, path, deleted_at) values (${project}, 'c.mov', 30, 'BROLL_CLIP', 'm16/c.mov', now())`.execute(
      server.db,
    );
    await migrateToLatest(server.db);

    const jobs = await server.db
      .selectFrom('mediaJobs')
      .select(['sourceKey', 'priority', 'status'])
      .where('kind', '=', 'asset.checksum')
      .where('sourceKey', 'like', 'm16/%')
      .orderBy('sourceKey')
      .execute();
    expect(jobs).toEqual([
      { sourceKey: 'm16/a.mov', priority: 200, status: 'queued' },
      { sourceKey: 'm16/b.mov', priority: 200, status: 'queued' },
    ]);
    const back = await migrator(server.db).migrateTo('0015-share-links');
    expect(back.error).toBeUndefined();
    expect((await server.db.selectFrom('mediaJobs').select('id').where('kind', '=', 'asset.checksum').execute()).length).toBe(0);
    await migrateToLatest(server.db);
  });
});
