import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Version } from '../../src/domain/contract/review.ts';
import { mediaTools } from '../../server/media/ffmpeg.ts';
import { signMediaToken, verifyMediaToken } from '../../server/media/media-links.ts';
import { mediaHandlers } from '../../server/media/pipeline.ts';
import { MP4_FTYP } from '../support/file-fixtures.ts';
import { generateClip, hasFfmpeg } from '../support/media.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';
import { finalPreviewReady } from './final-preview.ts';

/**
 * Issue 13, versions: older versions stay playable. A version's media link names its version,
 * plays that version's own derived files, and is re-checked against the review rules at every
 * request (customers: released versions only); the signature covers the version.
 */
type Headers = { authorization?: string };
const withFfmpeg = await hasFfmpeg();

describe.each(DATABASES)('playable versions on $name', ({ url }) => {
  let server: TestServer;
  const who: Record<'admin' | 'owner' | 'outsider', Headers> = { admin: {}, owner: {}, outsider: {} };
  let projectId: number;

  const call = (method: string, path: string, headers: Headers, payload?: unknown) =>
    server.app.inject({
      method: method as 'GET',
      url: path.startsWith('/api/') ? path : `/api/v1${path}`,
      headers: headers as Record<string, string>,
      ...(payload !== undefined && { payload: payload as object }),
    });
  const versions = async (headers: Headers) => {
    const response = await call('GET', `/projects/${projectId}/versions`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ versions: Version[] }>().versions;
  };
  /** Staff deliver a cut and the pipeline makes its preview and thumbnail (the real jobs, when ffmpeg is here). */
  const deliver = async (name: string, width: number) => {
    const bytes = withFfmpeg ? await generateClip({ seconds: 1, width, height: 180, audio: false }) : Buffer.concat([MP4_FTYP, Buffer.from(name)]);
    await server.app.ctx.storage.putObject(`projects/${projectId}/final/${name}`, bytes, 'video/mp4');
    const response = await call('POST', `/projects/${projectId}/deliverable`, who.admin, { path: `projects/${projectId}/final`, name });
    expect(response.statusCode, response.body).toBe(200);
    if (!withFfmpeg) return finalPreviewReady(server.db, projectId);
    const handlers = mediaHandlers(server.app.ctx, mediaTools());
    for (const kind of ['final.preview', 'final.thumbnail'] as const) {
      const job = await server.db
        .selectFrom('mediaJobs')
        .selectAll()
        .where('projectId', '=', projectId)
        .where('kind', '=', kind)
        .where('sourceKey', '=', `projects/${projectId}/final/${name}`)
        .executeTakeFirstOrThrow();
      await handlers[kind]({ job, signal: new AbortController().signal });
      await server.db.updateTable('mediaJobs').set({ status: 'done', finishedAt: new Date() }).where('id', '=', job.id).execute();
    }
  };
  const ownerSession = async () => {
    const user = await server.db.selectFrom('users').select(['id', 'sessionVersion']).where('email', '=', 'owner@demo.cutdesk.test').executeTakeFirstOrThrow();
    return { userId: user.id, sessionVersion: user.sessionVersion, impersonatorId: null, impersonatorSessionVersion: null };
  };
  const requestChanges = async () => {
    const current = (await versions(who.owner)).find((version) => version.current)!;
    expect(
      (await call('POST', `/projects/${projectId}/comments`, who.owner, { version: current.number, frame: 0, text: 'Warmer colours, please.' })).statusCode,
    ).toBe(201);
    const submitted = await call('POST', `/projects/${projectId}/submit`, who.owner);
    expect(submitted.statusCode, submitted.body).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer(url, { storage: true });
    who.admin = await signIn(server.app, 'admin@demo.cutdesk.test');
    who.owner = await signIn(server.app, 'owner@demo.cutdesk.test');
    who.outsider = await signIn(server.app, 'nina@northwind.demo.cutdesk.test');
    projectId = (await server.db.selectFrom('projects').select('id').where('name', '=', 'Product walkthrough').executeTakeFirstOrThrow()).id;
    await deliver('cut-v1.mp4', 320);
    expect((await call('POST', `/projects/${projectId}/submit`, who.admin)).statusCode).toBe(200);
    await requestChanges();
    await deliver('cut-v2.mp4', 240);
    expect((await call('POST', `/projects/${projectId}/submit`, who.admin)).statusCode).toBe(200);
  });
  afterAll(async () => server?.close());

  it('gives every version the customer may see its own links; the current one keeps the project’s', async () => {
    const [v1, v2] = await versions(who.owner);
    expect(v2).toMatchObject({ number: 2, current: true });
    expect(v2!.media!.preview).toMatch(new RegExp(`^/api/v1/media/${projectId}\\.[^/]+/preview\\.mp4$`));
    expect(v1).toMatchObject({ number: 1, current: false });
    expect(v1!.media!.preview).toMatch(new RegExp(`^/api/v1/media/${projectId}v1\\.[^/]+/preview\\.mp4$`));
    expect(v1!.media!.thumbnail).toMatch(/\/thumbnail\.jpg$/);
  });

  it.runIf(withFfmpeg)('plays version 1 for the customer after version 2 is released, from version 1’s own files', async () => {
    const [v1, v2] = await versions(who.owner);
    const old = await call('GET', v1!.media!.preview, {});
    expect(old.statusCode, old.body).toBe(302);
    expect(old.headers.location).toContain('cut-v1_proxy.mp4');
    const current = await call('GET', v2!.media!.preview, {});
    expect(current.statusCode, current.body).toBe(302);
    expect(current.headers.location).toContain('cut-v2_proxy.mp4');
    const thumbnail = await call('GET', v1!.media!.thumbnail, {});
    expect(thumbnail.statusCode).toBe(302);
    expect(thumbnail.headers.location).toContain('cut-v1_thumb.jpg');
    // HLS was not made here: "being processed", never another version's stream.
    expect((await call('GET', v1!.media!.stream, {})).statusCode).toBe(503);
  });

  it('a link to version 1 cannot be altered into one to version 2 (the signature covers the version)', async () => {
    const [v1] = await versions(who.owner);
    const token = v1!.media!.preview.split('/')[4]!;
    expect(verifyMediaToken(server.config.jwtSecret, token)).toMatchObject({ projectId, version: 1 });
    const altered = token.replace(`${projectId}v1.`, `${projectId}v2.`);
    expect(verifyMediaToken(server.config.jwtSecret, altered)).toBeNull();
    expect((await call('GET', `/api/v1/media/${altered}/preview.mp4`, {})).statusCode).toBe(404);
    // Nor dropped, to pass for the project's current link.
    expect((await call('GET', `/api/v1/media/${token.replace(`${projectId}v1.`, `${projectId}.`)}/preview.mp4`, {})).statusCode).toBe(404);
  });

  it('refuses a customer the links of a version not yet released (404), and lists it for staff', async () => {
    await requestChanges();
    await deliver('cut-v3.mp4', 200);
    expect((await versions(who.admin)).map((version) => [version.number, version.media !== null])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect((await versions(who.owner)).map((version) => version.number)).toEqual([1, 2]);
    const session = await ownerSession();
    const unreleased = signMediaToken(server.config.jwtSecret, projectId, session, Date.now(), 3);
    expect((await call('GET', `/api/v1/media/${unreleased}/preview.mp4`, {})).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/media/${unreleased}/stream/v0/playlist.m3u8`, {})).statusCode).toBe(404);
    // A version that does not exist at all answers the same.
    expect((await call('GET', `/api/v1/media/${signMediaToken(server.config.jwtSecret, projectId, session, Date.now(), 9)}/preview.mp4`, {})).statusCode).toBe(
      404,
    );
    // While the project is back in editing, the released versions stay playable for the customer.
    const [v1] = await versions(who.owner);
    if (withFfmpeg) expect((await call('GET', v1!.media!.preview, {})).statusCode).toBe(302);
    // Staff play the unreleased version.
    const [, , v3] = await versions(who.admin);
    if (withFfmpeg) expect((await call('GET', v3!.media!.preview, {})).statusCode).toBe(302);
  });

  it('answers 404 to another organization, by the list and by a link signed for them', async () => {
    expect((await call('GET', `/projects/${projectId}/versions`, who.outsider)).statusCode).toBe(404);
    const nina = await server.db
      .selectFrom('users')
      .select(['id', 'sessionVersion'])
      .where('email', '=', 'nina@northwind.demo.cutdesk.test')
      .executeTakeFirstOrThrow();
    const token = signMediaToken(
      server.config.jwtSecret,
      projectId,
      { userId: nina.id, sessionVersion: nina.sessionVersion, impersonatorId: null, impersonatorSessionVersion: null },
      Date.now(),
      1,
    );
    expect((await call('GET', `/api/v1/media/${token}/preview.mp4`, {})).statusCode).toBe(404);
  });
});
