/**
 * Copying every table of one PostgreSQL database (here: embedded PGlite) into another, keeping
 * ids (issue 15, `npm run move-data`). Rows travel as PostgreSQL's own JSON of each row
 * (`row_to_json`) and come back through `json_populate_recordset` of the same table type, so
 * every value round-trips exactly as the database renders it: timestamps to the microsecond,
 * jsonb, numeric, bytea (hex). Each page lands together with the last key it copied (one
 * statement, so both or neither), and a run after an interruption continues after that key.
 */

/** What the copy needs of a connection: a query with positional parameters. */
export interface SqlRunner {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface TableInfo {
  name: string;
  /** Primary-key columns in key order (the keyset the copy pages by). */
  keys: string[];
}

/** Tables the migrations keep for themselves: the target's own migration run writes them. */
export const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/** The move's own record in the target: which installation, and how far each table got. */
export const MOVE_TABLE = 'cutdesk_move';
export const MOVE_TABLES_TABLE = 'cutdesk_move_tables';

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function publicTables(db: SqlRunner): Promise<string[]> {
  return (
    await db.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  ).map((row) => row.name);
}

/** The product's tables, parents before the tables that reference them (a topological order of the foreign keys). */
export async function tablesInOrder(db: SqlRunner): Promise<TableInfo[]> {
  const tables = (await publicTables(db)).filter((name) => !MIGRATION_TABLES.has(name) && name !== MOVE_TABLE && name !== MOVE_TABLES_TABLE);
  const edges = await db.query<{ child: string; parent: string }>(
    `select distinct tc.relname as child, tp.relname as parent from pg_constraint c join pg_class tc on tc.oid = c.conrelid join pg_class tp on tp.oid = c.confrelid join pg_namespace n on n.oid = tc.relnamespace where c.contype = 'f' and n.nspname = 'public'`,
  );
  const keys = await db.query<{ table: string; column: string }>(
    `select tc.table_name as "table", k.column_name as "column" from information_schema.table_constraints tc join information_schema.key_column_usage k on k.constraint_name = tc.constraint_name and k.table_schema = tc.table_schema and k.table_name = tc.table_name where tc.table_schema = 'public' and tc.constraint_type = 'PRIMARY KEY' order by tc.table_name, k.ordinal_position`,
  );
  const parents = new Map(tables.map((name) => [name, new Set<string>()]));
  for (const { child, parent } of edges) if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)!.add(parent);
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (ordered.includes(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const parent of parents.get(name) ?? []) visit(parent);
    visiting.delete(name);
    ordered.push(name);
  };
  tables.forEach(visit);
  return ordered.map((name) => ({ name, keys: keys.filter((k) => k.table === name).map((k) => k.column) }));
}

export async function countRows(db: SqlRunner, table: string): Promise<number> {
  const [row] = await db.query<{ n: string | number }>(`select count(*) as n from ${ident(table)}`);
  return Number(row?.n ?? 0);
}

/** The move's per-table record, created with the move's own record. */
export const MOVE_TABLES_DDL = `create table ${MOVE_TABLES_TABLE} (table_name text primary key, last_key text[] not null, rows bigint not null default 0)`;

/**
 * Copies `table` from `source` to `target` in pages of `batch` rows by its primary key, starting
 * after the last key an earlier run recorded; `onRows` hears each page's size (progress).
 */
export async function copyTable(source: SqlRunner, target: SqlRunner, table: TableInfo, onRows: (rows: number) => void, batch = 1_000): Promise<void> {
  // Without a key a page cannot be resumed after, nor a row recognised as copied: every table of the product has one.
  if (!table.keys.length) throw new Error(`The table ${table.name} has no primary key, so it cannot be copied resumably. Give it one in a migration.`);
  const keyList = table.keys.map(ident).join(', ');
  const [recorded] = await target.query<{ last_key: string[] }>(`select last_key from ${MOVE_TABLES_TABLE} where table_name = $1`, [table.name]);
  let last: string[] | null = recorded?.last_key ?? null;
  for (;;) {
    const after = last === null ? '' : `where (${keyList}) > (${last.map((_, i) => `$${i + 1}`).join(', ')})`;
    // Keys go back as text: PostgreSQL reads them as the column's type, so no value loses precision on the way.
    const rows = await source.query<{ row: string; key: string[] }>(
      `select row_to_json(t)::text as row, array[${table.keys.map((k) => `t.${ident(k)}::text`).join(', ')}] as key from ${ident(table.name)} t ${after} order by ${keyList} limit ${batch}`,
      last ?? [],
    );
    if (rows.length === 0) return;
    last = rows[rows.length - 1]!.key;
    // The page and how far it got, in one statement: both land or neither does, so a run after an
    // interruption neither skips nor repeats a row (and `on conflict do nothing` keeps it so anyway).
    await target.query(
      `with page as (insert into ${ident(table.name)} overriding system value select * from json_populate_recordset(null::${ident(table.name)}, $1::json) on conflict do nothing)
       insert into ${MOVE_TABLES_TABLE} (table_name, last_key, rows) values ($2, $3::text[], $4)
       on conflict (table_name) do update set last_key = excluded.last_key, rows = ${MOVE_TABLES_TABLE}.rows + excluded.rows`,
      [`[${rows.map((r) => r.row).join(',')}]`, table.name, last, rows.length],
    );
    onRows(rows.length);
    if (rows.length < batch) return;
  }
}

interface SequenceState {
  name: string;
  /** The value the next `nextval` answers. */
  next: number;
}

/** Every sequence's next value, owned by a column (ids) or standing alone (invoice numbers). */
export async function sequenceStates(db: SqlRunner): Promise<SequenceState[]> {
  const names = (
    await db.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'S' and n.nspname = 'public' order by 1`,
    )
  ).map((row) => row.name);
  const states: SequenceState[] = [];
  for (const name of names) {
    const [state] = await db.query<{ last_value: string | number; is_called: boolean }>(`select last_value, is_called from ${ident(name)}`);
    states.push({ name, next: Number(state!.last_value) + (state!.is_called ? 1 : 0) });
  }
  return states;
}

/**
 * Every sequence continues where the source's does (new rows get new ids, invoices the next
 * number), and in any case past the largest value its column holds.
 */
export async function continueSequences(source: SqlRunner, target: SqlRunner): Promise<void> {
  const owned = await target.query<{ seq: string; tbl: string; col: string }>(
    `select s.relname as seq, t.relname as tbl, a.attname as col from pg_class s join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i') join pg_class t on t.oid = d.refobjid join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid join pg_namespace n on n.oid = s.relnamespace where s.relkind = 'S' and n.nspname = 'public'`,
  );
  for (const { name, next } of await sequenceStates(source)) {
    const column = owned.find((o) => o.seq === name);
    const largest = column ? `(select max(${ident(column.col)}) from ${ident(column.tbl)})` : 'null';
    await target.query(`select setval($1::regclass, greatest($2::bigint, coalesce(${largest}, 0) + 1), false)`, [ident(name), next]);
  }
}
