export type SortOrder = 'asc' | 'desc';

/** A table header cell that sorts by `column`; clicking the active column toggles the direction. */
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
