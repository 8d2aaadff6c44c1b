import { expect } from 'vitest';
import { MP4_FTYP } from '../support/file-fixtures.ts';
import { signIn, type TestServer } from './harness.ts';
import { finalPreviewReady } from './final-preview.ts';

/** The demo accounts the review tests act as, each as its bearer header. */
export async function reviewCast(server: TestServer) {
  const [admin, editor, owner, user, otherOwner] = await Promise.all(
    ['admin@demo.cutdesk.test', 'editor@demo.cutdesk.test', 'owner@demo.cutdesk.test', 'user@demo.cutdesk.test', 'nina@northwind.demo.cutdesk.test'].map(
      (email) => signIn(server.app, email),
    ),
  );
  return { admin: admin!, editor: editor!, owner: owner!, user: user!, otherOwner: otherOwner! };
}

/**
 * The demo's "Product walkthrough" (in editing) with a cut delivered by staff: version 1, not
 * sent to review yet. Answers the project's id.
 */
export async function walkthroughWithCut(server: TestServer, admin: Record<string, string>): Promise<number> {
  const projectId = (await server.db.selectFrom('projects').select('id').where('name', '=', 'Product walkthrough').executeTakeFirstOrThrow()).id;
  await server.app.ctx.storage.putObject(`projects/${projectId}/final/cut.mp4`, Buffer.concat([MP4_FTYP, Buffer.from('a cut')]), 'video/mp4');
  const delivered = await server.app.inject({
    method: 'POST',
    url: `/api/v1/projects/${projectId}/deliverable`,
    headers: admin,
    payload: { path: `projects/${projectId}/final`, name: 'cut.mp4' },
  });
  expect(delivered.statusCode, delivered.body).toBe(200);
  // Its preview is made (issue 36: send to review waits for it); no media worker runs here.
  await finalPreviewReady(server.db, projectId);
  return projectId;
}
