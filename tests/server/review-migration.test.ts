import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, migrator } from '../../server/migrations/index.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

/** Migration 0013 gives every project that already has a final video its review version. */
describe.each(DATABASES)('review migration on $name', ({ url }) => {
  let server: TestServer;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    server = await startTestServer(url);
    for (const name of ['Product walkthrough', 'Quarterly highlights', 'Hiring video']) {
      ids[name] = (await server.db.selectFrom('projects').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    }
  });
  afterAll(async () => server?.close());

  it('backfills one version per final video: released ones keep the review count, unreleased ones take the next', async () => {
    const down = await migrator(server.db).migrateTo('0012-sla-deadline-milliseconds');
    expect(down.error).toBeUndefined();
    const key = (name: string) => `projects/${ids[name]}/final/cut.mp4`;
    // In editing, never reviewed; in review (released, review count 1); a revision round after review 2.
    await sql`update projects set final_video_path = ${key('Product walkthrough')}, final_video_size = 10, no_reviews = 0, version_released = false where id = ${ids['Product walkthrough']}`.execute(
      server.db,
    );
    await sql`update projects set final_video_path = ${key('Quarterly highlights')}, final_video_size = 10, no_reviews = 1, version_released = true where id = ${ids['Quarterly highlights']}`.execute(
      server.db,
    );
    await sql`update projects set final_video_path = ${key('Hiring video')}, final_video_size = 10, no_reviews = 2, version_released = false where id = ${ids['Hiring video']}`.execute(
      server.db,
    );
    await migrateToLatest(server.db);

    const rows = await server.db.selectFrom('projectVersions').selectAll().orderBy('projectId').execute();
    const byProject = (name: string) => rows.find((row) => row.projectId === ids[name]);
    expect(rows).toHaveLength(3);
    expect(byProject('Product walkthrough')).toMatchObject({
      number: 1,
      releasedAt: null,
      videoPath: key('Product walkthrough'),
      frameRateNum: null,
      durationFrames: null,
    });
    expect(byProject('Quarterly highlights')).toMatchObject({ number: 1, videoPath: key('Quarterly highlights') });
    expect(byProject('Quarterly highlights')!.releasedAt).not.toBeNull();
    expect(byProject('Hiring video')).toMatchObject({ number: 3, releasedAt: null });

    // The API reports the unknown rate as an assumed 30/1, flagged.
    const owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    const response = await server.app.inject({ method: 'GET', url: `/api/v1/projects/${ids['Quarterly highlights']}/versions`, headers: owner });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      versions: [{ number: 1, frameRate: { num: 30, den: 1 }, frameRateKnown: false, durationFrames: null, current: true }],
    });
  });
});
