import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Db } from '../../server/db/connect.ts';
import { saveImage } from '../../server/db/image.ts';
import { MIGRATIONS, migrateToLatest } from '../../server/migrations/index.ts';
import { DEMO_ACCOUNTS, isEmpty, seedDemo } from '../../server/seed/demo.ts';

/** Everything that makes up the schema, as catalog listings (what `pg_dump --schema-only` would differ on). */
async function schemaOf(db: Db): Promise<Record<string, unknown[]>> {
  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows;
  return {
    columns: await rows(
      sql`select table_name, column_name, ordinal_position, data_type, udt_name, is_nullable, column_default, character_maximum_length, numeric_precision from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
    ),
    constraints: await rows(
      sql`select c.conrelid::regclass::text as on_table, c.conname, pg_get_constraintdef(c.oid) as def from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = 'public' order by 1, 2`,
    ),
    indexes: await rows(sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`),
    sequences: await rows(
      sql`select sequence_name, data_type, start_value, increment from information_schema.sequences where sequence_schema = 'public' order by sequence_name`,
    ),
    functions: await rows(
      sql`select p.proname, pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' order by 1, 2`,
    ),
    triggers: await rows(
      sql`select event_object_table, trigger_name, action_timing, event_manipulation, action_statement from information_schema.triggers where trigger_schema = 'public' order by 1, 2, 4`,
    ),
    types: await rows(
      sql`select t.typname, t.typtype, array(select e.enumlabel::text from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder) as labels from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'public' and t.typtype in ('e', 'd') order by 1`,
    ),
    extensions: await rows(sql`select extname from pg_extension order by 1`),
  };
}

/** Rows per table (the migrations insert some: plans, settings), and the migrations recorded. */
async function contentOf(db: Db): Promise<{ counts: Record<string, number>; migrations: string[] }> {
  const tables = (
    await sql<{
      name: string;
    }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(db)
  ).rows;
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(db)).rows[0]!.n);
  const migrations = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);
  return { counts, migrations };
}

const systemIdentifier = async (db: Db) => (await sql<{ id: string }>`select system_identifier::text as id from pg_control_system()`.execute(db)).rows[0]!.id;

/** Issue 14: a new data directory starts from this machine's database image instead of initdb. */
describe('database image', () => {
  const dirs: string[] = [];
  let cacheDir: string;
  const previousCache = process.env.CUTDESK_CACHE_DIR;
  const tempDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), `cutdesk-image-${name}-`));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    cacheDir = await tempDir('cache');
    process.env.CUTDESK_CACHE_DIR = cacheDir;
  });
  afterAll(async () => {
    if (previousCache === undefined) delete process.env.CUTDESK_CACHE_DIR;
    else process.env.CUTDESK_CACHE_DIR = previousCache;
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('is made by the first new data directory and gives the next ones the same schema, migrations and rows as initdb and the migrations', async () => {
    // The first new directory: initdb as before, migrated at once, its dump kept as the image.
    const first = await connectDatabase({ databaseUrl: null, dataDir: await tempDir('first') });
    const images = readdirSync(cacheDir).filter((f) => f.startsWith('pglite-image-') && f.endsWith('.tar.gz'));
    expect(images).toHaveLength(1);
    expect((await contentOf(first)).migrations).toEqual(Object.keys(MIGRATIONS));

    // The reference: a database made the usual way (initdb, then every migration).
    const reference = await connectDatabase({ databaseUrl: null, dataDir: '', inMemory: true });
    await migrateToLatest(reference);

    const secondDir = await tempDir('second');
    const fromImage = await connectDatabase({ databaseUrl: null, dataDir: secondDir });
    const other = await connectDatabase({ databaseUrl: null, dataDir: await tempDir('third') });
    try {
      const expected = await schemaOf(reference);
      expect(expected.columns!.length).toBeGreaterThan(50);
      expect(await schemaOf(fromImage)).toEqual(expected);
      expect(await schemaOf(first)).toEqual(expected);
      expect(await contentOf(fromImage)).toEqual(await contentOf(reference));
      // Nothing to do for the migrator: every migration is recorded.
      await migrateToLatest(fromImage);
      expect(await contentOf(fromImage)).toEqual(await contentOf(reference));
      // Each installation its own identity (npm run move-data tells installations apart by it).
      const ids = await Promise.all([first, fromImage, other].map(systemIdentifier));
      expect(new Set(ids).size).toBe(3);
    } finally {
      await Promise.all([first, reference, other].map((db) => db.destroy()));
    }

    // The demo seed works on it, and the database opens again with its rows (its WAL agrees
    // with its new identity).
    expect(await isEmpty(fromImage)).toBe(true);
    const password = await seedDemo(fromImage, null);
    expect(password?.length).toBeGreaterThanOrEqual(6);
    const users = (await fromImage.selectFrom('users').select('email').execute()).map((u) => u.email);
    expect(users).toEqual(expect.arrayContaining(DEMO_ACCOUNTS.map((a) => a.email)));
    const id = await systemIdentifier(fromImage);
    await fromImage.destroy();
    const reopened = await connectDatabase({ databaseUrl: null, dataDir: secondDir });
    try {
      expect(await isEmpty(reopened)).toBe(false);
      expect(await systemIdentifier(reopened)).toBe(id);
      expect((await reopened.selectFrom('users').select('email').execute()).length).toBe(users.length);
    } finally {
      await reopened.destroy();
    }
  }, 120_000);

  it('holds no password hash, secret or row of an installation', async () => {
    const [image] = readdirSync(cacheDir).filter((f) => f.endsWith('.tar.gz'));
    const tar = gunzipSync(readFileSync(join(cacheDir, image!))).toString('latin1');
    expect(tar).not.toContain('$argon2id');
    expect(tar).not.toContain('demo.cutdesk.test');
    expect(existsSync(join(cacheDir, image!))).toBe(true);
  });

  it('keeps the first image saved, and replaces a damaged one', async () => {
    // Processes that found no image at the same moment each make one: every database loaded
    // afterwards must come from the same image, whichever finished last.
    const file = join(await tempDir('save'), 'image.tar.gz');
    saveImage(file, new TextEncoder().encode('first'));
    saveImage(file, new TextEncoder().encode('second'));
    expect(gunzipSync(readFileSync(file)).toString()).toBe('first');
    writeFileSync(file, 'not gzip');
    saveImage(file, new TextEncoder().encode('third'));
    expect(gunzipSync(readFileSync(file)).toString()).toBe('third');
    expect(readdirSync(join(file, '..'))).toEqual(['image.tar.gz']);
  });

  it('falls back to initdb when the image is damaged', async () => {
    const [image] = readdirSync(cacheDir).filter((f) => f.endsWith('.tar.gz'));
    writeFileSync(join(cacheDir, image!), 'not a tarball');
    const dataDir = await tempDir('damaged');
    const db = await connectDatabase({ databaseUrl: null, dataDir });
    try {
      await migrateToLatest(db);
      expect((await contentOf(db)).migrations).toEqual(Object.keys(MIGRATIONS));
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
