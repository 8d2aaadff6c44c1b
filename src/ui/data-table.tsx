import { Fragment, useState, type MouseEvent, type ReactNode } from 'react';
import { Icon } from './icons.tsx';

export type SortOrder = 'asc' | 'desc';
export interface SortState<K extends string = string> {
  key: K;
  order: SortOrder;
}

export interface Column<T, K extends string = string> {
  key: string;
  header: ReactNode;
  /** Accessible name of a header without visible text (an actions column). */
  headerLabel?: string;
  cell: (row: T) => ReactNode;
  /** Makes the header a sort toggle for this key (sorting itself is the caller's, e.g. the server's). */
  sortKey?: K;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
  /** Keeps the cell on one line (dates, phone numbers, buttons). */
  nowrap?: boolean;
}

interface Props<T, K extends string> {
  /** Accessible name of the table. */
  label: string;
  columns: Column<T, K>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  sort?: SortState<K> | null;
  onSort?: (sort: SortState<K>) => void;
  /** Details under a row, opened by a chevron in the first cell. */
  details?: (row: T) => ReactNode;
  rowClassName?: (row: T) => string;
  /** `data-testid` of every body row. */
  rowTestId?: string;
  /** A click anywhere on the row that is not on a link, button or field. */
  onRowClick?: (row: T) => void;
  loading?: boolean;
  /** Shown in a row of its own while there are no rows; `false` when the caller shows its own empty state and loading spinner. */
  empty?: ReactNode;
  /** `board`: the staff boards' look (the dashboard's): the base table spacing and ▲ ▼ ↕ sort arrows. */
  variant?: 'list' | 'board';
}

const INTERACTIVE = 'a, button, input, select, textarea, label, [role="menu"], [role="dialog"]';

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

/** The kit's one sortable header cell: ascending first; clicking the active column toggles the direction. */
function SortableHeader<K extends string>({
  sortKey,
  header,
  headerLabel,
  width,
  align,
  sort,
  onSort,
  board,
}: Pick<Column<never, K>, 'header' | 'headerLabel' | 'width' | 'align'> & {
  sortKey: K;
  sort: SortState<K> | null | undefined;
  onSort: (sort: SortState<K>) => void;
  board: boolean;
}) {
  const order = sort?.key === sortKey ? sort.order : undefined;
  return (
    <th style={{ width, textAlign: align }} aria-label={headerLabel} aria-sort={order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : undefined}>
      <button
        type="button"
        className={board ? classes('sort-button', order && 'active') : classes('dt-sort', order && 'is-active')}
        onClick={() => onSort({ key: sortKey, order: order === 'asc' ? 'desc' : 'asc' })}
      >
        {header}
        {board ? (
          <span className="sort-arrow" aria-hidden>
            {order === 'asc' ? '▲' : order === 'desc' ? '▼' : '↕'}
          </span>
        ) : (
          <span className={classes('dt-sort-arrow', order)} aria-hidden>
            <Icon name="chevronDown" size={14} />
          </span>
        )}
      </button>
    </th>
  );
}

/** A table with header sort toggles (ascending first, then descending), expandable rows and an empty state. */
export function DataTable<T, K extends string = string>({
  label,
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  details,
  rowClassName,
  rowTestId,
  onRowClick,
  loading = false,
  empty,
  variant = 'list',
}: Props<T, K>) {
  const [open, setOpen] = useState<Set<string | number>>(new Set());
  const toggle = (key: string | number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const span = columns.length + (details ? 1 : 0);
  const onClick = (row: T) => (event: MouseEvent<HTMLTableRowElement>) => {
    if (!onRowClick || (event.target as HTMLElement).closest(INTERACTIVE)) return;
    onRowClick(row);
  };

  return (
    <div className="dt-wrap">
      <table className={classes('dt data-table', variant === 'board' && 'dt-board')} aria-label={label} aria-busy={loading}>
        <thead>
          <tr>
            {details && <th className="dt-toggle-cell" aria-label="Details" />}
            {columns.map((column) =>
              column.sortKey !== undefined && onSort ? (
                <SortableHeader
                  key={column.key}
                  sortKey={column.sortKey}
                  header={column.header}
                  headerLabel={column.headerLabel}
                  width={column.width}
                  align={column.align}
                  sort={sort}
                  onSort={onSort}
                  board={variant === 'board'}
                />
              ) : (
                <th key={column.key} style={{ width: column.width, textAlign: column.align }} aria-label={column.headerLabel}>
                  {column.header}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            const isOpen = open.has(key);
            return (
              <Fragment key={key}>
                <tr
                  className={classes(rowClassName?.(row), onRowClick && 'dt-clickable', isOpen && 'is-open')}
                  data-testid={rowTestId}
                  onClick={onRowClick ? onClick(row) : undefined}
                >
                  {details && (
                    <td className="dt-toggle-cell">
                      <button
                        type="button"
                        className="dt-toggle"
                        aria-expanded={isOpen}
                        aria-label={isOpen ? 'Hide details' : 'Show details'}
                        onClick={() => toggle(key)}
                      >
                        <Icon name="chevronRight" size={16} />
                      </button>
                    </td>
                  )}
                  {columns.map((column) => (
                    <td key={column.key} style={{ textAlign: column.align }} className={column.nowrap ? 'dt-nowrap' : undefined}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
                {details && isOpen && (
                  <tr className="dt-details">
                    <td colSpan={span}>{details(row)}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
          {rows.length === 0 && empty !== false && (
            <tr className="dt-empty">
              <td colSpan={span}>{loading ? <span className="spinner" role="status" aria-label="Loading" /> : (empty ?? 'Nothing to show.')}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** "Get more" under a list: shown only while the last page came back full. */
export function MoreButton({ visible, busy, onClick, children }: { visible: boolean; busy: boolean; onClick: () => void; children: ReactNode }) {
  if (!visible) return null;
  return (
    <div className="dt-more">
      <button type="button" className="btn btn-secondary" onClick={onClick} disabled={busy} aria-busy={busy}>
        {busy && <span className="spinner spinner-dark" aria-hidden />}
        {children}
      </button>
    </div>
  );
}
