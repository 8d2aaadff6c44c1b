import { existsSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import type { PGlite as KyselyPglite } from 'kysely';
import { connectDatabase, databaseOnPglite, embeddedPglite, type Db, type EmbeddedPglite } from '../../server/db/connect.ts';
import { currentImageFile } from '../../server/db/image.ts';
import { migrateToLatest } from '../../server/migrations/index.ts';

/**
 * Open in-memory PGlite databases kept between the test servers of one vitest worker.
 *
 * Opening one from the machine's image costs about 1.3 CPU s (most of a PGlite test server's
 * start); putting a used one back the way the image left it costs 0.1–0.3 s (docs/testing.md,
 * stop 42). A database goes back only when that is exact: the same schema as when it was opened
 * (else a test migrated, altered or dropped something, and it is closed), no transaction open,
 * every listener gone; then every table is emptied, the rows the migrations wrote are put back,
 * every sequence is set where it was and the session is discarded (settings, prepared
 * statements, temporary tables, locks). The workers keep their modules between files
 * (vitest.config.ts, `isolate: false`), so the pool serves every file a worker runs.
 */

/** A file rarely has more than two servers on PGlite open at once; more are closed when they come back. */
const KEEP_IDLE = 2;
/** A reset that has not finished by then waits on something the test left behind: the database is dropped. */
const RESET_TIMEOUT_MS = 10_000;

interface Baseline {
  /** A digest of every user object's definition: tables, columns, defaults, constraints, indexes, triggers, functions, types, roles. */
  schema: string;
  tables: string[];
  /** The rows the migrations wrote, per table, in the order they were stored. */
  rows: { table: string; columns: string[]; json: string }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
}

interface Pooled {
  pglite: PGlite;
  baseline: Baseline;
}

const idle: Pooled[] = [];

/** A migrated, empty in-memory database: one the pool holds, or a new one. `release` hands it back (instead of closing it). */
export async function pooledDatabase(): Promise<{ db: Db; release: () => Promise<void> }> {
  const pooled = idle.pop() ?? (await openPooled());
  return lend(pooled);
}

async function openPooled(): Promise<Pooled> {
  const fromImage = () => connectDatabase({ databaseUrl: null, dataDir: '', inMemory: true, migrated: true });
  const imageExisted = existsSync(await currentImageFile());
  let opened = await fromImage();
  await migrateToLatest(opened);
  // The first open on a new machine makes the image from its own database. That database is not
  // quite one loaded from the image (a sequence loaded from a dump resumes 32 values on, as after
  // a crash): it is closed, and every pooled database starts from the image alike.
  if (!imageExisted) {
    await opened.destroy();
    opened = await fromImage();
  }
  const pglite = embeddedPglite(opened) as PGlite;
  return { pglite, baseline: await readBaseline(pglite) };
}

/**
 * A `Db` on the pooled database through a handle that stops working when it is handed back, as a
 * closed database would: a job of a closed server still running then fails instead of writing
 * into the next test's data.
 */
function lend(pooled: Pooled): { db: Db; release: () => Promise<void> } {
  const { pglite } = pooled;
  let returned = false;
  const unlistens = new Set<() => Promise<void>>();
  const open = () => {
    if (returned || pglite.closed) throw new Error('PGlite instance is already closed.');
    return pglite;
  };
  const forKysely: KyselyPglite = {
    get closed() {
      return returned || pglite.closed;
    },
    get ready() {
      return pglite.ready;
    },
    get waitReady() {
      return pglite.waitReady;
    },
    query: async (text, params, options) => open().query(text, params, options),
    transaction: async (callback) => open().transaction(callback),
    // Kysely's destroy closes the instance it ran on; a lent one goes back to the pool instead.
    close: async () => undefined,
  };
  const embedded: EmbeddedPglite = {
    get closed() {
      return returned || pglite.closed;
    },
    query: async (text, params) => open().query(text, params),
    listen: async (channel, callback) => {
      const unlisten = await open().listen(channel, callback);
      const once = async () => {
        if (!unlistens.delete(once)) return;
        if (!pglite.closed) await unlisten();
      };
      unlistens.add(once);
      return once;
    },
    dumpDataDir: async (compression) => open().dumpDataDir(compression),
  };
  const db = databaseOnPglite(forKysely, embedded);
  return {
    db,
    release: async () => {
      if (returned) return;
      for (const unlisten of [...unlistens]) await unlisten().catch(() => undefined);
      returned = true;
      await giveBack(pooled);
    },
  };
}

async function giveBack(pooled: Pooled): Promise<void> {
  const { pglite } = pooled;
  if (pglite.closed) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), RESET_TIMEOUT_MS);
    timer.unref();
  });
  const reset = await Promise.race([resetToBaseline(pooled).catch(() => false), timedOut]).finally(() => clearTimeout(timer));
  if (reset && idle.length < KEEP_IDLE) idle.push(pooled);
  else if (reset) await pglite.close();
  // Not reset: the database is left to the garbage collector (closing it could wait on the same lock).
}

/** Puts the database back as `baseline` found it; false when it cannot be (the schema changed, a transaction is open). */
async function resetToBaseline({ pglite, baseline }: Pooled): Promise<boolean> {
  if (pglite.isInTransaction()) return false;
  if ((await schemaDigest(pglite)) !== baseline.schema) return false;
  await pglite.transaction(async (tx) => {
    await tx.exec(`truncate ${baseline.tables.join(', ')} restart identity cascade`);
    for (const { table, columns, json } of baseline.rows) {
      const list = columns.map(quoteIdent).join(', ');
      await tx.query(`insert into ${table} (${list}) overriding system value select ${list} from json_populate_recordset(null::${table}, $1)`, [json]);
    }
    for (const { name, lastValue, isCalled } of baseline.sequences) await tx.query('select setval($1::regclass, $2::bigint, $3)', [name, lastValue, isCalled]);
  });
  await pglite.exec('discard all');
  return true;
}

const USER_NAMESPACES = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`;

async function readBaseline(pglite: PGlite): Promise<Baseline> {
  const { rows: relations } = await pglite.query<{ name: string; kind: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name, c.relkind as kind
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where ${USER_NAMESPACES} and c.relkind in ('r', 'p', 'S') order by 1`,
  );
  const tables = relations.filter((relation) => relation.kind !== 'S').map((relation) => relation.name);
  const rows: Baseline['rows'] = [];
  for (const table of tables) {
    const { rows: stored } = await pglite.query<{ json: string | null }>(`select json_agg(t)::text as json from ${table} t`);
    const json = stored[0]?.json;
    if (!json) continue;
    const { rows: columns } = await pglite.query<{ name: string }>(
      `select attname as name from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
      [table],
    );
    rows.push({ table, columns: columns.map((column) => column.name), json });
  }
  const sequences: Baseline['sequences'] = [];
  for (const relation of relations.filter((relation) => relation.kind === 'S')) {
    const { rows: state } = await pglite.query<{ lastValue: string; isCalled: boolean }>(
      `select last_value::text as "lastValue", is_called as "isCalled" from ${relation.name}`,
    );
    sequences.push({ name: relation.name, lastValue: state[0]!.lastValue, isCalled: state[0]!.isCalled });
  }
  return { schema: await schemaDigest(pglite), tables, rows, sequences };
}

/** One digest of every definition a test could change; equal digests mean the same schema. */
async function schemaDigest(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ digest: string }>(
    `select md5(concat_ws('|',
       (select string_agg(format('%s.%s:%s:%s:%s', c.oid::regclass, c.relkind, c.relpersistence, c.relrowsecurity, c.relhastriggers), ',' order by c.oid)
          from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${USER_NAMESPACES}),
       (select string_agg(format('%s.%s:%s:%s:%s:%s', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attgenerated,
                 pg_get_expr(d.adbin, d.adrelid)), ',' order by a.attrelid, a.attnum)
          from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
          left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
         where ${USER_NAMESPACES} and a.attnum > 0 and not a.attisdropped),
       (select string_agg(format('%s:%s', conrelid::regclass, pg_get_constraintdef(co.oid)), ',' order by co.oid)
          from pg_constraint co join pg_namespace n on n.oid = co.connamespace where ${USER_NAMESPACES}),
       (select string_agg(pg_get_indexdef(i.indexrelid), ',' order by i.indexrelid)
          from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace where ${USER_NAMESPACES}),
       (select string_agg(format('%s:%s', pg_get_triggerdef(t.oid), t.tgenabled), ',' order by t.oid) from pg_trigger t where not t.tgisinternal),
       (select string_agg(format('%s:%s', p.oid::regprocedure, md5(p.prosrc)), ',' order by p.oid)
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${USER_NAMESPACES}),
       (select string_agg(format('%s:%s', e.enumtypid::regtype, e.enumlabel), ',' order by e.enumtypid, e.enumsortorder) from pg_enum e),
       (select string_agg(format('%s:%s', t.oid, t.typname), ',' order by t.oid)
          from pg_type t join pg_namespace n on n.oid = t.typnamespace where ${USER_NAMESPACES}),
       (select string_agg(format('%s:%s', extname, extversion), ',' order by extname) from pg_extension),
       (select string_agg(format('%s:%s', rolname, rolsuper), ',' order by rolname) from pg_roles),
       (select string_agg(format('%s:%s', setrole, setconfig), ',' order by setrole) from pg_db_role_setting),
       (select string_agg(format('%s:%s', p.polrelid::regclass, p.polname), ',' order by p.oid) from pg_policy p)
     )) as digest`,
  );
  return rows[0]!.digest;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
