import { sql, type Kysely } from 'kysely';

/** Organizations, users, credits, access codes, projects, assets and impersonations. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status_id', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('PENDING'))
    .addColumn('storage_tb', 'double precision', (c) => c.notNull().defaultTo(1))
    .addColumn('used_space', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('assets_link', 'text')
    .addColumn('tracking_code', 'text')
    .addColumn('project_review_period', 'integer', (c) => c.notNull().defaultTo(7))
    .addColumn('renewable_at', 'timestamptz')
    .addColumn('is_cancelled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .addCheckConstraint('organizations_used_space_within_bounds', sql`used_space >= 0`)
    .execute();
  await sql`create unique index organizations_name_unique on organizations (lower(name)) where deleted_at is null`.execute(db);

  await db.schema
    .createTable('credits')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('start_date', 'date')
    .addColumn('end_date', 'date')
    .addColumn('active_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_per_interval', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('interval_months', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('renewable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('renew_date', 'date')
    .addCheckConstraint('credits_used_within_active', sql`used_credits >= 0 and used_credits <= active_credits`)
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('SUPERADMIN','ADMIN','EDITOR','OWNER','USER')`))
    .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('is_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('profile_picture_url', 'text')
    .addColumn('assets_path', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`create unique index users_email_unique on users (lower(email)) where deleted_at is null`.execute(db);
  await db.schema.createIndex('users_organization').on('users').column('organization_id').execute();

  await db.schema
    .createTable('access_codes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('recovery','invite')`))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('access_codes_user').on('access_codes').column('user_id').execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('editor_id', 'integer', (c) => c.references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('brief', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('audience', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('goal', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('final_video_length', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('OPENED'))
    .addColumn('paused_at', 'timestamptz')
    .addColumn('total_paused_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_submitted_at', 'timestamptz')
    .addColumn('review_started_at', 'timestamptz')
    .addColumn('review_period', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('no_reviews', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('review_link', 'text')
    .addColumn('collaboration_link', 'text')
    .addColumn('assets_link', 'text')
    .addColumn('editor_assets_link', 'text')
    .addColumn('hd_url', 'text')
    .addColumn('low_res_url', 'text')
    .addColumn('final_video_thumbnail', 'text')
    .addColumn('final_video_preview', 'text')
    .addColumn('final_video_path', 'text')
    .addColumn('final_video_size', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('projects_organization_status').on('projects').columns(['organization_id', 'status']).execute();
  await db.schema.createIndex('projects_status').on('projects').column('status').execute();
  await db.schema.createIndex('projects_editor').on('projects').column('editor_id').execute();

  await db.schema
    .createTable('assets')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('ASSET','INTERVIEW_CLIP','BROLL_CLIP')`))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('preview_path', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('assets_project').on('assets').column('project_id').execute();

  await db.schema
    .createTable('impersonations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['impersonations', 'assets', 'projects', 'access_codes', 'users', 'credits', 'organizations']) {
    await db.schema.dropTable(table).execute();
  }
}
