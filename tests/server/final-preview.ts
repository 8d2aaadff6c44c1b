import type { Db } from '../../server/db/connect.ts';
import { derivedKey } from '../../src/domain/media.ts';

/**
 * Issue 36: send to review needs the final video's preview made by the media pipeline. Tests
 * without a media worker say it was: the current final video's 'final.preview' job is done (one
 * is recorded when none was queued). A project without a final video gets `source` as its final
 * video first (the demo's projects in review have a preview key but no video file).
 */
export async function finalPreviewReady(db: Db, projectId: number, source = `projects/${projectId}/final/cut.mp4`): Promise<void> {
  const project = await db.selectFrom('projects').select('finalVideoPath').where('id', '=', projectId).executeTakeFirstOrThrow();
  const key = project.finalVideoPath ?? source;
  if (!project.finalVideoPath)
    await db
      .updateTable('projects')
      .set({ finalVideoPath: key, finalVideoPreview: derivedKey(key, 'proxy') })
      .where('id', '=', projectId)
      .execute();
  const done = await db
    .updateTable('mediaJobs')
    .set({ status: 'done', finishedAt: new Date() })
    .where('projectId', '=', projectId)
    .where('assetId', 'is', null)
    .where('kind', '=', 'final.preview')
    .where('sourceKey', '=', key)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) > 0) return;
  await db
    .insertInto('mediaJobs')
    .values({
      kind: 'final.preview',
      projectId,
      assetId: null,
      sourceKey: key,
      outputKey: derivedKey(key, 'proxy'),
      lockedBy: null,
      lockedUntil: null,
      lastError: null,
      finishedAt: new Date(),
      status: 'done',
    })
    .execute();
}
