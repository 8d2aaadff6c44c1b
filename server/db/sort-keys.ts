import {
  ColumnNode,
  ColumnUpdateNode,
  InsertQueryNode,
  PrimitiveValueListNode,
  UpdateQueryNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { collationKey, phoneKey } from '../../src/domain/collation.ts';

/**
 * The sort keys of people-facing text (issue 36, item 8; src/domain/collation.ts): the server's
 * lists order by these columns (`COLLATE "C"`, migration 0021), never by the text itself.
 * Each key is made from the columns of the same write.
 */
interface SortKeyRule {
  /** The columns the key is made from (camelCase, as the repositories write them). */
  from: readonly string[];
  key: string;
  make: (values: readonly unknown[]) => string | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

const SORT_KEY_RULES: Record<string, readonly SortKeyRule[]> = {
  projects: [{ from: ['name'], key: 'nameSortKey', make: ([name]) => collationKey(text(name)) }],
  organizations: [{ from: ['name'], key: 'nameSortKey', make: ([name]) => collationKey(text(name)) }],
  users: [
    // The customers list sorts owners by their full name, as it shows it: "first last".
    { from: ['firstName', 'lastName'], key: 'nameSortKey', make: ([first, last]) => collationKey(`${text(first) ?? ''} ${text(last) ?? ''}`) },
    { from: ['email'], key: 'emailSortKey', make: ([email]) => collationKey(text(email)) },
    { from: ['phone'], key: 'phoneSortKey', make: ([phone]) => phoneKey(text(phone)) },
  ],
};

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  if (node.kind === 'TableNode') return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  return undefined;
}

/** The column an update sets: `name`, or `p.name` (a reference). */
function columnName(node: OperationNode): string | undefined {
  if (node.kind === 'ColumnNode') return (node as ColumnNode).column.name;
  if (node.kind === 'ReferenceNode') return columnName((node as unknown as { column: OperationNode }).column);
  return undefined;
}

/** The plain value a write gives a column, or `fail` when it is an expression the key cannot be made from. */
function plainValue(node: OperationNode | unknown, fail: () => never): unknown {
  if (typeof node !== 'object' || node === null || !('kind' in node)) return node;
  if (ValueNode.is(node as OperationNode)) return (node as ValueNode).value;
  if ((node as OperationNode).kind === 'DefaultInsertValueNode') return null;
  return fail();
}

function failure(table: string, rule: SortKeyRule): never {
  throw new Error(`${table}.${rule.key} is made from ${rule.from.join(' and ')} in the same write, as plain values (server/db/sort-keys.ts)`);
}

function withInsertKeys(node: InsertQueryNode, table: string, rules: readonly SortKeyRule[]): InsertQueryNode {
  const columns = (node.columns ?? []).map((column) => column.column.name);
  const applying = rules.filter((rule) => rule.from.some((name) => columns.includes(name)) && !columns.includes(rule.key));
  if (applying.length === 0) return node;
  for (const rule of applying) if (!rule.from.every((name) => columns.includes(name))) failure(table, rule);
  if (!node.values || !ValuesNode.is(node.values)) return failure(table, applying[0]!);
  const rows = node.values.values.map((row) => {
    const cells: readonly unknown[] = row.values;
    const keys = applying.map((rule) => rule.make(rule.from.map((name) => plainValue(cells[columns.indexOf(name)], () => failure(table, rule)))));
    return PrimitiveValueListNode.is(row)
      ? PrimitiveValueListNode.create([...row.values, ...keys])
      : ValueListNode.create([...row.values, ...keys.map((key) => ValueNode.create(key))]);
  });
  return InsertQueryNode.cloneWith(node, {
    columns: [...(node.columns ?? []), ...applying.map((rule) => ColumnNode.create(rule.key))],
    values: ValuesNode.create(rows),
  });
}

function withUpdateKeys(node: UpdateQueryNode, table: string, rules: readonly SortKeyRule[]): UpdateQueryNode {
  const updates = node.updates ?? [];
  const byColumn = new Map(updates.map((update) => [columnName(update.column), update.value]));
  const applying = rules.filter((rule) => rule.from.some((name) => byColumn.has(name)) && !byColumn.has(rule.key));
  if (applying.length === 0) return node;
  const added = applying.map((rule) => {
    if (!rule.from.every((name) => byColumn.has(name))) failure(table, rule);
    const key = rule.make(rule.from.map((name) => plainValue(byColumn.get(name), () => failure(table, rule))));
    return ColumnUpdateNode.create(ColumnNode.create(rule.key), ValueNode.create(key));
  });
  return UpdateQueryNode.cloneWithUpdates(node, added);
}

/**
 * Writes the sort keys with the text they are made from, in the same statement: every insert
 * and update through Kysely that sets a sorted column also sets its key, so no repository, job
 * or seed can forget one. A write the key cannot be made from (an expression, or one of the two
 * names alone) throws rather than leave a stale key. SQL written by hand bypasses it: none
 * writes these columns outside tests.
 */
export class SortKeysPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (InsertQueryNode.is(node)) {
      const table = tableName(node.into);
      const rules = table ? SORT_KEY_RULES[table] : undefined;
      return rules ? withInsertKeys(node, table!, rules) : node;
    }
    if (UpdateQueryNode.is(node)) {
      const table = tableName(node.table);
      const rules = table ? SORT_KEY_RULES[table] : undefined;
      return rules ? withUpdateKeys(node, table!, rules) : node;
    }
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
