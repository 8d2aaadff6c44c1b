import { useAtomValue } from '@/lib/state.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { DashboardRow, DashboardSort } from '@/domain/contract/projects.ts';
import type { User } from '@/domain/contract/users.ts';
import { isManagerRole } from '@/domain/roles.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { meAtom } from '@/lib/session-state.ts';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { EmptyState, PageHeader, Spinner } from '@/ui/empty-state.tsx';
import { LinkCell, StaffStatusPill } from '@/ui/project-cells.tsx';
import { SlaBadge } from '@/ui/sla-badge.tsx';
import { SortableHeader, type SortOrder } from '@/ui/data-table.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { changeStatus, type StatusAction } from './api/change-status.ts';
import { listDashboard, type DashboardTab } from './api/list-dashboard.ts';
import { listEditors } from './api/list-editors.ts';
import { EditorSelect } from './components/editor-select.tsx';

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

/** /dashboard: every project with its SLA timer, sorted and paged by the server (A§2). */
export function DashboardPage() {
  const me = useAtomValue(meAtom);
  const manager = isManagerRole(me?.role.name);
  const [tab, setTab] = useState<DashboardTab>('active');
  const [sort, setSort] = useState<DashboardSort>('timer');
  const [order, setOrder] = useState<SortOrder>('asc');
  const [rows, setRows] = useState<DashboardRow[]>([]);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [editors, setEditors] = useState<User[]>([]);
  const [pending, setPending] = useState<{ row: DashboardRow; action: StatusAction; label: string } | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const generation = useRef(0);

  const loadPage = useCallback(
    async (start: number) => {
      const current = ++generation.current;
      setLoading(true);
      try {
        const page = await listDashboard(tab, sort, order, start, PAGE_SIZE);
        if (current !== generation.current) return;
        setRows((previous) => (start === 0 ? page : [...previous, ...page]));
        setDone(page.length < PAGE_SIZE);
        setError(null);
      } catch (e) {
        if (current === generation.current) setError(errorMessage(e));
      } finally {
        if (current === generation.current) setLoading(false);
      }
    },
    [tab, sort, order],
  );

  useEffect(() => {
    setRows([]);
    setDone(false);
    void loadPage(0);
  }, [loadPage]);

  useEffect(() => {
    listEditors()
      .then(setEditors)
      .catch((e: unknown) => console.error('editors failed to load', e));
  }, []);

  // Infinite scroll: the next page loads when the sentinel comes into view, debounced 500 ms.
  useEffect(() => {
    const target = sentinel.current;
    if (!target || done) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!loading) void loadPage(rows.length);
      }, SCROLL_DEBOUNCE_MS);
    });
    observer.observe(target);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [done, loading, loadPage, rows.length]);

  const onSort = (column: DashboardSort, next: SortOrder) => {
    setSort(column);
    setOrder(next);
  };
  const reload = () => void loadPage(0);

  return (
    <>
      <PageHeader title="Dashboard" subtitle="Every customer project with its 48-business-hour timer." />
      <Tabs tabs={TABS} active={tab} onChange={setTab} label="Project lists" />
      {error && <div className="form-error">{error}</div>}
      <div className="table-card">
        <table className="data-table" aria-label="Projects">
          <thead>
            <tr>
              <SortableHeader column="timer" label="Timer" sort={sort} order={order} onSort={onSort} />
              <SortableHeader column="name" label="Project" sort={sort} order={order} onSort={onSort} />
              <SortableHeader column="organization" label="Organization" sort={sort} order={order} onSort={onSort} />
              <SortableHeader column="status" label="Status" sort={sort} order={order} onSort={onSort} />
              <SortableHeader column="createdAt" label="Created" sort={sort} order={order} onSort={onSort} />
              <SortableHeader column="version" label="Version" sort={sort} order={order} onSort={onSort} />
              <th>Feedback</th>
              <th>ID</th>
              <th>Editor</th>
              {manager && <th aria-label="Actions" />}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-testid="dashboard-row">
                <td>
                  <SlaBadge project={{ ...row, status: row.status.name }} refreshMs={60_000} />
                </td>
                <td>
                  <Link href={`/project/${row.id}`}>{row.name}</Link>
                </td>
                <td>
                  <Link href={`/organization/${row.organization.id}`}>{row.organization.name}</Link>
                </td>
                <td>
                  <StaffStatusPill status={row.status.name} />
                </td>
                <td>{dateFormat.format(new Date(row.createdAt))}</td>
                <td>{String(row.noReviews).padStart(2, '0')}</td>
                <td>
                  <LinkCell href={row.reviewLink} />
                </td>
                <td>{row.id}</td>
                <td>
                  <EditorSelect projectId={row.id} projectName={row.name} status={row.status.name} editor={row.editor} editors={editors} disabled={!manager} onAssigned={reload} />
                </td>
                {manager && (
                  <td>
                    <div className="table-actions">
                      {ACTIONS[tab].map(({ action, label }) => (
                        <Button key={action} variant={action === 'hide' ? 'secondary' : 'primary'} className="btn-small" onClick={() => setPending({ row, action, label })}>
                          {label}
                        </Button>
                      ))}
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {!loading && rows.length === 0 && !error && (
          <EmptyState title="No projects here" icon="grid">
            Projects appear here once customers send them to editing.
          </EmptyState>
        )}
        <div ref={sentinel} className="load-more">
          {loading ? <Spinner label="Loading more projects" /> : done && rows.length > 0 ? `${rows.length} projects` : ''}
        </div>
      </div>
      {pending && (
        <ConfirmModal
          title={`${pending.label} “${pending.row.name}”?`}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            try {
              await changeStatus(pending.row.id, pending.action);
              reload();
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>{pending.action === 'archive' ? 'The project moves to Completed Projects.' : pending.action === 'hide' ? 'The project moves to Deleted Projects and disappears for the customer.' : 'The project returns to Completed Projects.'}</p>
        </ConfirmModal>
      )}
    </>
  );
}
