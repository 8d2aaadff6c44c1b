import { useAtomValue } from '@/lib/state.ts';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { DashboardRow, DashboardSort } from '@/domain/contract/projects.ts';
import { restoreTarget } from '@/domain/project-rules.ts';
import { STAFF_STATUS_LABELS, STATUS_WORKFLOW_ORDER } from '@/domain/project-status.ts';
import { isManagerRole } from '@/domain/roles.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { plural } from '@/lib/format.ts';
import { keepPreviousData, useInfiniteQuery, useMutation } from '@/lib/query.ts';
import { meAtom } from '@/lib/session-state.ts';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { EmptyState, PageHeader, Spinner } from '@/ui/empty-state.tsx';
import { Menu } from '@/ui/menu.tsx';
import { LinkCell, StaffStatusPill } from '@/ui/project-cells.tsx';
import { SlaBadge } from '@/ui/sla-badge.tsx';
import { DataTable, type Column, type SortState } from '@/ui/data-table.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { changeStatus, type StatusAction } from './api/change-status.ts';
import { dashboardKeys } from './api/keys.ts';
import { listDashboard, type DashboardTab } from './api/list-dashboard.ts';
import { EditorSelect } from './components/editor-select.tsx';
import { useAssignableEditors, useProjectChanged } from './use-dashboard-queries.ts';
import { useLiveDashboard } from './use-live-dashboard.ts';
import { pathTo } from '@/domain/pages.ts';

const PAGE_SIZE = 30;
const SCROLL_DEBOUNCE_MS = 500;
const TABS: { id: DashboardTab; label: string }[] = [
  { id: 'active', label: 'Active Projects' },
  { id: 'archived', label: 'Completed Projects' },
  { id: 'hidden', label: 'Deleted Projects' },
];
const ACTIONS: Record<DashboardTab, { action: StatusAction; label: string }[]> = {
  active: [
    { action: 'archive', label: 'Complete' },
    { action: 'hide', label: 'Delete' },
  ],
  archived: [{ action: 'hide', label: 'Delete' }],
  hidden: [{ action: 'restore', label: 'Restore' }],
};
const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
/** Status sorts in workflow order (src/domain/project-status.ts), said on the header. */
const STATUS_ORDER_HINT = `Sorts in workflow order: ${[...new Set(STATUS_WORKFLOW_ORDER.map((s) => STAFF_STATUS_LABELS[s]))].join(' → ')}`;

/** What the confirmation says each action does; Restore names the status the project returns to (issue 12). */
function confirmText(action: StatusAction, row: DashboardRow): string {
  if (action === 'archive') return 'The project moves to Completed Projects.';
  if (action === 'hide') return 'The project moves to Deleted Projects and disappears for the customer.';
  const target = row.restoresTo ?? restoreTarget(null);
  const list = target === 'ARCHIVED' ? 'Completed Projects' : 'Active Projects';
  return row.restoresTo && row.restoresTo !== 'ARCHIVED'
    ? `The project returns to ${list} as ${STAFF_STATUS_LABELS[target]}, the status it had when it was deleted, with its version, video and timer.`
    : `The project returns to ${list} as ${STAFF_STATUS_LABELS[target]}.`;
}

/** /dashboard: every project with its SLA timer, sorted and paged by the server (A§2). */
export function DashboardPage() {
  const me = useAtomValue(meAtom);
  const manager = isManagerRole(me?.role.name);
  const [tab, setTab] = useState<DashboardTab>('active');
  const [{ key: sort, order }, setSort] = useState<SortState<DashboardSort>>({ key: 'timer', order: 'asc' });
  const [pending, setPending] = useState<{ row: DashboardRow; action: StatusAction; label: string } | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const editors = useAssignableEditors();
  const changed = useProjectChanged();
  // Rows update in place when any project changes (live updates).
  useLiveDashboard();
  const statusChange = useMutation({ mutationFn: ({ id, action }: { id: number; action: StatusAction }) => changeStatus(id, action), onSuccess: changed });

  const query = useInfiniteQuery({
    queryKey: dashboardKeys.list(tab, sort, order),
    queryFn: ({ pageParam }) => listDashboard(tab, sort, order, pageParam, PAGE_SIZE),
    initialPageParam: null as string | null,
    // The next page continues after the last row shown (keyset: as quick deep in the list as at
    // its top, and no row shown twice when projects move meanwhile); none after the last page.
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Another tab or sort keeps the rows on screen until its first page arrives.
    placeholderData: keepPreviousData,
  });
  const rows = query.data?.pages.flatMap((page) => page.projects) ?? [];
  const done = query.data !== undefined && !query.hasNextPage;
  const loading = query.isFetching;
  const error = query.error ? errorMessage(query.error) : null;
  const { hasNextPage, fetchNextPage, refetch } = query;

  // Infinite scroll: the next page loads when the sentinel comes into view, debounced 500 ms.
  useEffect(() => {
    const target = sentinel.current;
    if (!target || done) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (loading) return;
        // A first page that failed is asked for again, as the next one would be.
        void (hasNextPage ? fetchNextPage() : refetch());
      }, SCROLL_DEBOUNCE_MS);
    });
    observer.observe(target);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [done, loading, hasNextPage, fetchNextPage, refetch, rows.length]);

  const columns: Column<DashboardRow, DashboardSort>[] = [
    // One line per row at 1440 px (issue 12): long titles and names end in an ellipsis, the whole text on hover.
    {
      key: 'timer',
      header: 'Timer',
      sortKey: 'timer',
      nowrap: true,
      cell: (row) => <SlaBadge project={{ ...row, status: row.status.name }} refreshMs={60_000} />,
    },
    {
      key: 'name',
      header: 'Project',
      sortKey: 'name',
      width: '26%',
      cell: (row) => (
        <Link href={pathTo('staffProject', { id: row.id })} className="cell-clip" title={row.name}>
          {row.name}
        </Link>
      ),
    },
    {
      key: 'organization',
      header: 'Organization',
      sortKey: 'organization',
      width: '16%',
      cell: (row) => (
        <Link href={pathTo('organization', { id: row.organization.id })} className="cell-clip" title={row.organization.name}>
          {row.organization.name}
        </Link>
      ),
    },
    {
      key: 'status',
      header: <span title={STATUS_ORDER_HINT}>Status</span>,
      sortKey: 'status',
      nowrap: true,
      cell: (row) => <StaffStatusPill status={row.status.name} />,
    },
    { key: 'createdAt', header: 'Created', sortKey: 'createdAt', nowrap: true, cell: (row) => dateFormat.format(new Date(row.createdAt)) },
    { key: 'version', header: 'Version', sortKey: 'version', nowrap: true, cell: (row) => String(row.noReviews).padStart(2, '0') },
    { key: 'feedback', header: 'Feedback', nowrap: true, cell: (row) => <LinkCell href={row.reviewLink} /> },
    { key: 'id', header: 'ID', nowrap: true, cell: (row) => row.id },
    {
      key: 'editor',
      header: 'Editor',
      cell: (row) => (
        <EditorSelect projectId={row.id} projectName={row.name} status={row.status.name} editor={row.editor} editors={editors} disabled={!manager} />
      ),
    },
  ];
  // The status actions sit in a row menu, as on the other staff tables: two buttons per row
  // took the width the titles need to stay on one line at 1440 px (issue 12).
  if (manager)
    columns.push({
      key: 'actions',
      header: null,
      headerLabel: 'Actions',
      align: 'right',
      width: 48,
      cell: (row) => (
        <Menu
          label={`Actions for ${row.name}`}
          items={ACTIONS[tab].map(({ action, label }) => ({ label, danger: action === 'hide', onSelect: () => setPending({ row, action, label }) }))}
        />
      ),
    });

  return (
    <>
      <PageHeader title="Dashboard" subtitle="Every customer project with its 48-business-hour timer." />
      <Tabs tabs={TABS} active={tab} onChange={setTab} label="Project lists" />
      {error && <div className="form-error">{error}</div>}
      <div className="table-card board-card">
        <DataTable
          variant="board"
          label="Projects"
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          rowTestId="dashboard-row"
          sort={{ key: sort, order }}
          onSort={setSort}
          empty={false}
        />
        {!loading && rows.length === 0 && !error && (
          <EmptyState title="No projects here" icon="grid">
            Projects appear here once customers send them to editing.
          </EmptyState>
        )}
        <div ref={sentinel} className="load-more">
          {loading ? <Spinner label="Loading more projects" /> : done && rows.length > 0 ? plural(rows.length, 'project') : ''}
        </div>
      </div>
      {pending && (
        <ConfirmModal
          title={`${pending.label} “${pending.row.name}”?`}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            try {
              await statusChange.mutateAsync({ id: pending.row.id, action: pending.action });
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p data-testid="status-confirm-text">{confirmText(pending.action, pending.row)}</p>
        </ConfirmModal>
      )}
    </>
  );
}
