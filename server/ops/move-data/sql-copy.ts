/**
 * Copying every table of one PostgreSQL database (here: embedded PGlite) into another, keeping
 * ids (issue 15, `npm run move-data`). Rows travel as PostgreSQL's own JSON of each row
 * (`row_to_json`) and come back through `json_populate_recordset` of the same table type, so
 * every value round-trips exactly as the database renders it: timestamps to the microsecond,
 * jsonb, numeric, bytea (hex). Inserts skip rows already there (`on conflict do nothing`), so an
 * interrupted move runs again without duplicating anything.
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
const OWN_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The public tables, parents before the tables that reference them (a topological order of the foreign keys). */
export async function tablesInOrder(db: SqlRunner): Promise<TableInfo[]> {
  const tables = (await db.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`)).map((row) => row.name).filter((name) => !OWN_TABLES.has(name));
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

/**
 * Copies `table` from `source` to `target` in pages of `batch` rows by its primary key; answers
 * the rows read. `onRows` hears each page's size (progress). Rows already in the target are left as they are.
 */
export async function copyTable(source: SqlRunner, target: SqlRunner, table: TableInfo, onRows: (rows: number) => void, batch = 1_000): Promise<number> {
  const keyList = table.keys.length ? table.keys.map(ident).join(', ') : 'ctid';
  let last: unknown[] | null = null;
  let total = 0;
  for (;;) {
    const after: string = last === null ? '' : `where (${keyList}) > (${last.map((_, i) => `$${i + 1}`).join(', ')})`;
    // Keys go back as text: PostgreSQL reads them as the column's type, so no value loses precision on the way.
    const rows: { row: string; [key: string]: unknown }[] = await source.query<{ row: string; [key: string]: unknown }>(
      `select row_to_json(t)::text as row, ${table.keys.map((k) => `t.${ident(k)}::text as ${ident(`k_${k}`)}`).join(', ') || 'null as none'} from ${ident(table.name)} t ${after} order by ${keyList} limit ${batch}`,
      last ?? [],
    );
    if (rows.length === 0) return total;
    const json = `[${rows.map((r) => r.row).join(',')}]`;
    await target.query(`insert into ${ident(table.name)} overriding system value select * from json_populate_recordset(null::${ident(table.name)}, $1::json) on conflict do nothing`, [json]);
    total += rows.length;
    onRows(rows.length);
    if (!table.keys.length || rows.length < batch) return total;
    const end: Record<string, unknown> = rows[rows.length - 1]!;
    last = table.keys.map((k): unknown => end[`k_${k}`]);
  }
}

/** Every sequence owned by a column, set past the largest value copied (new rows get new ids). */
export async function resetSequences(target: SqlRunner): Promise<void> {
  const owned = await target.query<{ seq: string; tbl: string; col: string }>(
    `select s.relname as seq, t.relname as tbl, a.attname as col from pg_class s join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i') join pg_class t on t.oid = d.refobjid join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid join pg_namespace n on n.oid = s.relnamespace where s.relkind = 'S' and n.nspname = 'public'`,
  );
  for (const { seq, tbl, col } of owned) {
    await target.query(`select setval('${ident(seq).replace(/'/g, "''")}', coalesce((select max(${ident(col)}) from ${ident(tbl)}), 0) + 1, false)`);
  }
}
