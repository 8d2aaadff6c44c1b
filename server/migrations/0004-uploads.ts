import { sql, type Kysely } from 'kysely';

/**
 * Uploads (issue 4): temporary credentials of the embedded object store, name reservations
 * of uploads in progress, and the asset indexes registration and deletion rely on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Embedded store only: who may sign with which access key id, under which prefix, until when.
  // The secret and session token are derived from the access key id with a server key, never stored.
  await db.schema
    .createTable('storage_credentials')
    .addColumn('access_key_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('allowed_prefix', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('storage_credentials_expires').on('storage_credentials').column('expires_at').execute();

  // A name handed out by check-name stays taken while its upload may still complete.
  await db.schema
    .createTable('upload_reservations')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('upload_reservations_expires').on('upload_reservations').column('expires_at').execute();

  // One live record per object and project (registration is idempotent); duplicated projects
  // share objects, so deletion counts the live records of a path across projects.
  await sql`create unique index assets_project_path_live on assets (project_id, path) where deleted_at is null`.execute(db);
  await sql`create index assets_path_live on assets (path) where deleted_at is null`.execute(db);
  await sql`create index assets_project_type_live on assets (project_id, type, created_at) where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['assets_project_type_live', 'assets_path_live', 'assets_project_path_live']) await db.schema.dropIndex(index).execute();
  await db.schema.dropTable('upload_reservations').execute();
  await db.schema.dropTable('storage_credentials').execute();
}
