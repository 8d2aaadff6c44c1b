import { sql, type Kysely } from 'kysely';

/**
 * Frame-accurate review: the versions of a project's final video and the time-coded comments
 * on them.
 *
 * `project_versions`: one row per cut delivered for review, numbered 1, 2, … per project. A
 * delivery replaces the video of the latest version while that version has not been sent to
 * review (or is the one in review), else it starts the next number; `released_at` is set when
 * staff send it to review. The frame rate and the length in frames are filled in by the media
 * pipeline when it probes the video (null until then, and for the rows backfilled here).
 *
 * `review_comments`: a thread's first comment has a frame (and optionally an exclusive end
 * frame); replies (one level) carry their thread's frame so a version's comments are listed by
 * frame with one index. Authors are kept by name and role as well as by id, so a deleted
 * user's comment still says who wrote it. Deleting is soft (`deleted_at`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_versions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull().check(sql`number >= 1`))
    .addColumn('video_path', 'text', (c) => c.notNull())
    .addColumn('video_size', 'bigint')
    .addColumn('preview_path', 'text')
    .addColumn('frame_rate_num', 'integer')
    .addColumn('frame_rate_den', 'integer')
    .addColumn('duration_frames', 'integer')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('released_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('project_versions_project_number', ['project_id', 'number'])
    .addCheckConstraint(
      'project_versions_rate',
      sql`(frame_rate_num is null) = (frame_rate_den is null) and (frame_rate_num is null or (frame_rate_num > 0 and frame_rate_den > 0))`,
    )
    .execute();
  // The pipeline finds a version by the object it probed.
  await sql`create index project_versions_video on project_versions (project_id, video_path)`.execute(db);

  await db.schema
    .createTable('review_comments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('version_id', 'integer', (c) => c.notNull().references('project_versions.id').onDelete('cascade'))
    .addColumn('parent_id', 'integer', (c) => c.references('review_comments.id').onDelete('cascade'))
    .addColumn('author_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('author_role', 'text', (c) => c.notNull())
    .addColumn('frame', 'integer', (c) => c.notNull().check(sql`frame >= 0`))
    .addColumn('end_frame', 'integer')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('drawing', 'jsonb')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .addCheckConstraint('review_comments_range', sql`end_frame is null or end_frame > frame`)
    .execute();
  await sql`create index review_comments_version_frame on review_comments (version_id, frame, id)`.execute(db);
  await sql`create index review_comments_parent on review_comments (parent_id) where parent_id is not null`.execute(db);

  // Projects that have a final video already: one version each. Its number is the review count
  // when the cut was sent to review (released), else the next one; the frame rate is unknown
  // (the API reports an assumed 30/1, flagged) until the video is delivered again.
  await sql`
    insert into project_versions (project_id, number, video_path, video_size, preview_path, released_at, created_at)
    select id,
           case when version_released then greatest(no_reviews, 1) else no_reviews + 1 end,
           final_video_path, final_video_size, final_video_preview,
           case when version_released then coalesce(review_started_at, now()) else null end,
           coalesce(review_started_at, latest_submitted_at, created_at)
    from projects
    where final_video_path is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('review_comments').execute();
  await db.schema.dropTable('project_versions').execute();
}
