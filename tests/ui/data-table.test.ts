import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable, type Column, type SortState } from '@/ui/data-table.tsx';

interface Row {
  id: number;
  name: string;
}
type Key = 'name' | 'id';

const rows: Row[] = [
  { id: 1, name: 'Alpha' },
  { id: 2, name: 'Beta' },
];
const columns: Column<Row, Key>[] = [
  { key: 'name', header: 'Name', sortKey: 'name', cell: (row) => row.name },
  { key: 'id', header: 'ID', sortKey: 'id', cell: (row) => row.id },
  { key: 'actions', header: null, headerLabel: 'Actions', cell: () => createElement('button', { type: 'button' }, 'Go') },
];

/** The table's markup (the server renderer: these tests run in Node without a DOM). */
function render(props: Partial<Parameters<typeof DataTable<Row, Key>>[0]> = {}) {
  const sort: SortState<Key> = { key: 'name', order: 'asc' };
  return renderToStaticMarkup(
    createElement(DataTable<Row, Key>, { label: 'Things', columns, rows, rowKey: (row) => row.id, sort, onSort: () => undefined, ...props }),
  );
}

describe('DataTable', () => {
  it('marks only the sorted column with aria-sort and keeps the list look by default', () => {
    const html = render();
    expect(html).toContain('<table class="dt data-table" aria-label="Things" aria-busy="false">');
    expect(html).toContain('<th aria-sort="ascending"><button type="button" class="dt-sort is-active">Name<span class="dt-sort-arrow asc" aria-hidden="true">');
    expect(html).toContain('<th><button type="button" class="dt-sort">ID<span class="dt-sort-arrow" aria-hidden="true">');
    expect(html.match(/aria-sort=/g)).toHaveLength(1);
  });

  it('draws the board look: base spacing class and text arrows', () => {
    const html = render({ variant: 'board', sort: { key: 'id', order: 'desc' } });
    expect(html).toContain('<table class="dt data-table dt-board"');
    expect(html).toContain('<th><button type="button" class="sort-button">Name<span class="sort-arrow" aria-hidden="true">↕</span></button></th>');
    expect(html).toContain(
      '<th aria-sort="descending"><button type="button" class="sort-button active">ID<span class="sort-arrow" aria-hidden="true">▼</span></button></th>',
    );
  });

  it('names a header without text, tags rows for tests and leaves plain rows without a class', () => {
    const html = render({ rowTestId: 'thing-row' });
    expect(html).toContain('<th aria-label="Actions"></th>');
    expect(html.match(/<tr data-testid="thing-row">/g)).toHaveLength(2);
  });

  it('shows a header as plain text when the table cannot sort', () => {
    const html = render({ onSort: undefined });
    expect(html).toContain('<th>Name</th>');
    expect(html).not.toContain('<button type="button" class="dt-sort');
  });

  it('shows the empty row unless the caller shows its own empty state', () => {
    expect(render({ rows: [], empty: 'Nothing yet.' })).toContain('<tr class="dt-empty"><td colSpan="3">Nothing yet.</td></tr>');
    expect(render({ rows: [], loading: true })).toContain('role="status"');
    expect(render({ rows: [], empty: false })).toContain('<tbody></tbody>');
  });
});
