import { Fragment, useState, type MouseEvent, type ReactNode } from 'react';
import { Icon } from './icons.tsx';

export type SortOrder = 'asc' | 'desc';
export interface SortState<K extends string = string> {
  key: K;
  order: SortOrder;
}

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Makes the header a sort toggle for this key (sorting itself is the caller's, e.g. the server's). */
  sortKey?: string;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
  /** Keeps the cell on one line (dates, phone numbers, buttons). */
  nowrap?: boolean;
}

interface Props<T> {
  /** Accessible name of the table. */
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  sort?: SortState | null;
  onSort?: (sort: SortState) => void;
  /** Details under a row, opened by a chevron in the first cell. */
  details?: (row: T) => ReactNode;
  rowClassName?: (row: T) => string;
  /** A click anywhere on the row that is not on a link, button or field. */
  onRowClick?: (row: T) => void;
  loading?: boolean;
  empty?: ReactNode;
}

const INTERACTIVE = 'a, button, input, select, textarea, label, [role="menu"], [role="dialog"]';

/** A table with header sort toggles (ascending first, then descending), expandable rows and an empty state. */
export function DataTable<T>({ label, columns, rows, rowKey, sort, onSort, details, rowClassName, onRowClick, loading = false, empty }: Props<T>) {
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
      <table className="dt data-table" aria-label={label} aria-busy={loading}>
        <thead>
          <tr>
            {details && <th className="dt-toggle-cell" aria-label="Details" />}
            {columns.map((column) => {
              const active = column.sortKey !== undefined && sort?.key === column.sortKey;
              return (
                <th
                  key={column.key}
                  style={{ width: column.width, textAlign: column.align }}
                  aria-sort={active ? (sort!.order === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {column.sortKey && onSort ? (
                    <button
                      type="button"
                      className={`dt-sort ${active ? 'is-active' : ''}`}
                      onClick={() => onSort({ key: column.sortKey!, order: active && sort!.order === 'asc' ? 'desc' : 'asc' })}
                    >
                      {column.header}
                      <span className={`dt-sort-arrow ${active ? sort!.order : ''}`} aria-hidden>
                        <Icon name="chevronDown" size={14} />
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            const isOpen = open.has(key);
            return (
              <Fragment key={key}>
                <tr className={`${rowClassName?.(row) ?? ''} ${onRowClick ? 'dt-clickable' : ''} ${isOpen ? 'is-open' : ''}`} onClick={onClick(row)}>
                  {details && (
                    <td className="dt-toggle-cell">
                      <button type="button" className="dt-toggle" aria-expanded={isOpen} aria-label={isOpen ? 'Hide details' : 'Show details'} onClick={() => toggle(key)}>
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
          {rows.length === 0 && (
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

/** A plain table's header cell (tables laid out by hand, like the dashboard's) that sorts by `column`; clicking the active column toggles the direction. */
export function SortableHeader<C extends string>({ column, label, sort, order, onSort }: { column: C; label: string; sort: C; order: SortOrder; onSort: (column: C, order: SortOrder) => void }) {
  const active = sort === column;
  return (
    <th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className={`sort-button ${active ? 'active' : ''}`} onClick={() => onSort(column, active && order === 'asc' ? 'desc' : 'asc')}>
        {label}
        <span className="sort-arrow" aria-hidden>
          {active ? (order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
