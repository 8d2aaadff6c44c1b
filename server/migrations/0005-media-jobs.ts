import { sql, type Kysely } from 'kysely';

/**
 * Media work (issue 6): a job queue kept in PostgreSQL. Each row is one piece of work on one
 * source object (a thumbnail, a proxy, an HLS rendition, a download rendition). Claimed with
 * FOR UPDATE SKIP LOCKED and held by a lease, so several server instances never run the same
 * job and a job whose worker died is taken again once its lease runs out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media_jobs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('asset_id', 'integer', (c) => c.references('assets.id').onDelete('cascade'))
    .addColumn('source_key', 'text')
    .addColumn('output_key', 'text')
    .addColumn('payload', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued','running','done','failed','cancelled')`),
    )
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // The claim scans only live jobs, in the order it takes them.
  await sql`create index media_jobs_claim on media_jobs (priority, run_at, id) where status in ('queued', 'running')`.execute(db);
  await sql`create index media_jobs_project on media_jobs (project_id, kind, created_at desc) where project_id is not null`.execute(db);
  await sql`create index media_jobs_asset on media_jobs (asset_id, kind) where asset_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('media_jobs').execute();
}
