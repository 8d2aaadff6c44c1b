import { sql } from 'kysely';
import type { CommentAuthorRole } from '../../src/domain/share-links.ts';
import type { Db } from '../db/connect.ts';
import type { ProjectVersionRow, ReviewCommentRow } from '../db/schema.ts';

/** What the media pipeline measured of a version's video. */
export interface VersionMeasure {
  frameRate: { num: number; den: number } | null;
  durationFrames: number | null;
  width: number | null;
  height: number | null;
}

/** A final video as the project holds it when it is registered. */
export interface DeliveredVideo {
  projectId: number;
  videoPath: string;
  videoSize: number | null;
  previewPath: string | null;
}

export interface NewReviewComment {
  projectId: number;
  versionId: number;
  parentId: number | null;
  authorUserId: number | null;
  authorName: string;
  authorRole: CommentAuthorRole;
  shareLinkId?: number | null;
  frame: number;
  endFrame: number | null;
  text: string;
  drawing: unknown;
}

/** Runs `work` in `db`'s transaction when it is one, else in a new transaction. */
function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

export function reviewRepo(db: Db) {
  return {
    /** Whether a version of the project holds the video `videoPath`. */
    async holdsVersionVideo(projectId: number, videoPath: string): Promise<boolean> {
      return (
        (await db.selectFrom('projectVersions').select('id').where('projectId', '=', projectId).where('videoPath', '=', videoPath).executeTakeFirst()) !==
        undefined
      );
    },
    /** Which of `paths` is a review version's cut. */
    async versionPaths(paths: readonly string[]): Promise<string[]> {
      if (paths.length === 0) return [];
      return (await db.selectFrom('projectVersions').select('videoPath').where('videoPath', 'in', paths).execute()).map((row) => row.videoPath);
    },
    /** A project's versions, oldest first. */
    async versions(projectId: number): Promise<ProjectVersionRow[]> {
      return db.selectFrom('projectVersions').selectAll().where('projectId', '=', projectId).orderBy('number').execute();
    },

    async version(projectId: number, number: number): Promise<ProjectVersionRow | undefined> {
      return db.selectFrom('projectVersions').selectAll().where('projectId', '=', projectId).where('number', '=', number).executeTakeFirst();
    },

    /**
     * Records a delivered final video. The latest version takes the new video when it has not
     * been sent to review yet, or when it is the one in review (`replacesReleased`: the product
     * shows a cut replaced during review in that same review); otherwise the video starts the
     * next version. The same video again changes nothing. Under the project's row lock, so two
     * registrations never make the same number twice.
     */
    async recordDelivery(video: DeliveredVideo, replacesReleased: boolean): Promise<ProjectVersionRow> {
      return inTransaction(db, async (tx) => {
        await tx.selectFrom('projects').select('id').where('id', '=', video.projectId).forUpdate().executeTakeFirst();
        const latest = await tx
          .selectFrom('projectVersions')
          .selectAll()
          .where('projectId', '=', video.projectId)
          .orderBy('number', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (latest?.videoPath === video.videoPath) return latest;
        const fresh = {
          videoPath: video.videoPath,
          videoSize: video.videoSize,
          previewPath: video.previewPath,
          frameRateNum: null,
          frameRateDen: null,
          durationFrames: null,
          width: null,
          height: null,
        };
        if (latest && (latest.releasedAt === null || replacesReleased)) {
          return tx
            .updateTable('projectVersions')
            .set({ ...fresh, updatedAt: sql`now()` })
            .where('id', '=', latest.id)
            .returningAll()
            .executeTakeFirstOrThrow();
        }
        return tx
          .insertInto('projectVersions')
          .values({ projectId: video.projectId, number: (latest?.number ?? 0) + 1, ...fresh })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    },

    /** Staff sent the project to review: its latest version is the customer's from now on. */
    async releaseLatest(projectId: number, now: Date): Promise<void> {
      await db
        .updateTable('projectVersions')
        .set({ releasedAt: now, updatedAt: now })
        .where('projectId', '=', projectId)
        .where('releasedAt', 'is', null)
        .where('number', '=', (eb) =>
          eb
            .selectFrom('projectVersions as v')
            .select((v) => v.fn.max('v.number').as('n'))
            .where('v.projectId', '=', projectId),
        )
        .execute();
    },

    /** What ffprobe found in the version whose video is `videoPath` (every version of the project holding it). */
    async recordMeasure(projectId: number, videoPath: string, measure: VersionMeasure): Promise<void> {
      await db
        .updateTable('projectVersions')
        .set({
          frameRateNum: measure.frameRate?.num ?? null,
          frameRateDen: measure.frameRate?.den ?? null,
          durationFrames: measure.durationFrames,
          width: measure.width,
          height: measure.height,
          updatedAt: sql`now()`,
        })
        .where('projectId', '=', projectId)
        .where('videoPath', '=', videoPath)
        .execute();
    },

    /** Every comment of a version not deleted, threads and replies, by frame. */
    async comments(versionId: number): Promise<ReviewCommentRow[]> {
      return db
        .selectFrom('reviewComments')
        .selectAll()
        .where('versionId', '=', versionId)
        .where('deletedAt', 'is', null)
        .orderBy('frame')
        .orderBy('id')
        .execute();
    },

    /** The threads a version's deleted first comments leave behind when they still have live replies. */
    async deletedThreadsWithReplies(versionId: number): Promise<ReviewCommentRow[]> {
      return db
        .selectFrom('reviewComments as c')
        .selectAll('c')
        .where('c.versionId', '=', versionId)
        .where('c.parentId', 'is', null)
        .where('c.deletedAt', 'is not', null)
        .where((eb) => eb.exists(eb.selectFrom('reviewComments as r').select('r.id').whereRef('r.parentId', '=', 'c.id').where('r.deletedAt', 'is', null)))
        .execute();
    },

    /** How many live comments (threads and replies) a version holds. */
    async countComments(versionId: number): Promise<number> {
      const row = await db
        .selectFrom('reviewComments')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('versionId', '=', versionId)
        .where('deletedAt', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Open threads of a version: live first comments not resolved (what a change request sends the editor). */
    async countOpenThreads(versionId: number): Promise<number> {
      const row = await db
        .selectFrom('reviewComments')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('versionId', '=', versionId)
        .where('parentId', 'is', null)
        .where('deletedAt', 'is', null)
        .where('resolvedAt', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /**
     * The thread `commentId` belongs to: its first comment (deleted or not) and its replies
     * (deleted ones too; the caller filters), or nothing when the id is not the project's.
     */
    async threadAround(projectId: number, commentId: number): Promise<ReviewCommentRow[]> {
      const found = await db
        .selectFrom('reviewComments')
        .select(['id', 'parentId'])
        .where('projectId', '=', projectId)
        .where('id', '=', commentId)
        .executeTakeFirst();
      if (!found) return [];
      const threadId = found.parentId ?? found.id;
      return db
        .selectFrom('reviewComments')
        .selectAll()
        .where('projectId', '=', projectId)
        .where((eb) => eb.or([eb('id', '=', threadId), eb('parentId', '=', threadId)]))
        .orderBy('id')
        .execute();
    },

    /** One live comment of the project. */
    async comment(projectId: number, id: number): Promise<ReviewCommentRow | undefined> {
      return db
        .selectFrom('reviewComments')
        .selectAll()
        .where('projectId', '=', projectId)
        .where('id', '=', id)
        .where('deletedAt', 'is', null)
        .executeTakeFirst();
    },

    async versionById(id: number): Promise<ProjectVersionRow | undefined> {
      return db.selectFrom('projectVersions').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insertComment(comment: NewReviewComment): Promise<ReviewCommentRow> {
      return db
        .insertInto('reviewComments')
        .values({ ...comment, drawing: comment.drawing === null ? null : JSON.stringify(comment.drawing) })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Changes a live comment's text and/or resolution; undefined when it was deleted meanwhile. */
    async updateComment(id: number, changes: { text?: string; resolved?: { at: Date; by: number } | null }, now: Date): Promise<ReviewCommentRow | undefined> {
      return db
        .updateTable('reviewComments')
        .set({
          updatedAt: now,
          ...(changes.text !== undefined && { text: changes.text }),
          ...(changes.resolved !== undefined && { resolvedAt: changes.resolved?.at ?? null, resolvedBy: changes.resolved?.by ?? null }),
        })
        .where('id', '=', id)
        .where('deletedAt', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },

    async deleteComment(id: number, now: Date): Promise<void> {
      await db.updateTable('reviewComments').set({ deletedAt: now, updatedAt: now }).where('id', '=', id).where('deletedAt', 'is', null).execute();
    },
  };
}
