import { connectDatabase, embeddedPglite } from '../../db/connect.ts';
import { migrateToLatest } from '../../migrations/index.ts';
import { countRows, ident, MIGRATION_TABLES, MOVE_TABLE, publicTables, type SqlRunner } from './sql-copy.ts';

/**
 * Whether `npm run move-data` may write into a target database (issue 15): an empty one starts a
 * move, one holding this installation's unfinished (or finished) move resumes it, anything else
 * is refused before a single statement changes it.
 */

export class MoveRefusedError extends Error {}

export type TargetState = 'empty' | 'resume';

export async function inspectTarget(target: SqlRunner, installation: string): Promise<TargetState> {
  const tables = await publicTables(target);
  if (tables.includes(MOVE_TABLE)) {
    const [move] = await target.query<{ installation: string; data_dir: string }>(`select installation, data_dir from ${MOVE_TABLE}`);
    if (move?.installation === installation) return 'resume';
    throw new MoveRefusedError(`The target database holds a move from another installation (${move?.data_dir ?? 'unknown'}). Move into a new, empty database.`);
  }
  const filled: { table: string; rows: number }[] = [];
  for (const table of tables.filter((name) => !MIGRATION_TABLES.has(name))) {
    const rows = await countRows(target, table);
    if (rows > 0) filled.push({ table, rows });
  }
  if (filled.length === 0) return 'empty';
  // A database the product's migrations ran on (a server started on it with SEED=none) holds
  // the plans those migrations insert: that is still empty, and the source's plans replace them.
  const foreign: typeof filled = [];
  const seeded = tables.includes('kysely_migration') ? await rowsTheMigrationsInsert() : new Map<string, string>();
  for (const { table, rows } of filled) if (seeded.get(table) !== (await rowsWithoutTimes(target, table)).join('\n')) foreign.push({ table, rows });
  if (foreign.length === 0) return 'empty';
  const named = foreign
    .slice(0, 5)
    .map((f) => `${f.table} (${f.rows} rows)`)
    .join(', ');
  throw new MoveRefusedError(`The target database is not empty: ${named}${foreign.length > 5 ? ', …' : ''}. Move into a new, empty database.`);
}

/** A table's rows without their timestamps (a migration's `now()` differs from one run to the next), in key order. */
async function rowsWithoutTimes(db: SqlRunner, table: string): Promise<string[]> {
  const times = (
    await db.query<{ name: string }>(
      `select column_name as name from information_schema.columns where table_schema = 'public' and table_name = $1 and data_type like 'timestamp%'`,
      [table],
    )
  ).map((row) => row.name);
  const rows = await db.query<{ row: string }>(
    `select (to_jsonb(t) ${times.map((name) => `- '${name.replace(/'/g, "''")}'`).join(' ')})::text as row from ${ident(table)} t order by 1`,
  );
  return rows.map((r) => r.row);
}

/** What a fresh run of the migrations leaves in each table, from a throwaway in-memory database. */
async function rowsTheMigrationsInsert(): Promise<Map<string, string>> {
  const db = await connectDatabase({ databaseUrl: null, dataDir: '', inMemory: true });
  try {
    await migrateToLatest(db);
    const pglite = embeddedPglite(db)!;
    const fresh: SqlRunner = { query: async (text, params) => (await pglite.query(text, params)).rows as never };
    const seeded = new Map<string, string>();
    for (const table of await publicTables(fresh)) {
      if (!MIGRATION_TABLES.has(table) && (await countRows(fresh, table)) > 0) seeded.set(table, (await rowsWithoutTimes(fresh, table)).join('\n'));
    }
    return seeded;
  } finally {
    await db.destroy();
  }
}
