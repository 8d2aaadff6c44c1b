import { useAtomValue } from '@/lib/state.ts';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ORGANIZATION_SEARCH_MAX, ORGANIZATIONS_PAGE_SIZE, type OrganizationRow, type OrganizationSort } from '@/domain/contract/customers.ts';
import { isManagerRole } from '@/domain/roles.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate, fullName } from '@/lib/format.ts';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@/lib/query.ts';
import { meAtom } from '@/lib/session-state.ts';
import { startImpersonation } from '@/lib/session.ts';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { DataTable, MoreButton, type Column, type SortState } from '@/ui/data-table.tsx';
import { PageHeader } from '@/ui/empty-state.tsx';
import { Icon } from '@/ui/icons.tsx';
import { queryKeys } from '@/shared/query/keys.ts';
import { deleteOrganization } from './api/delete-organization.ts';
import { customersListKey, customersListsKey } from './api/keys.ts';
import { listCustomers } from './api/list-customers.ts';
import { CustomerDetails } from './components/customer-details.tsx';
import { ExpiryCell } from './components/expiry-cell.tsx';
import { PlanCell } from './components/plan-cell.tsx';
import { pathTo } from '@/domain/pages.ts';

/** How long typing in the search box rests before the list is asked again. */
const SEARCH_DEBOUNCE_MS = 300;

/** /customers (A§2): seven columns plus the plan, server sorting and search, expandable rows, Delete and Log In As, 50 per page. */
export function CustomersPage() {
  const me = useAtomValue(meAtom);
  const canManage = isManagerRole(me?.role.name);
  const [, navigate] = useLocation();
  const [sort, setSort] = useState<SortState<OrganizationSort>>({ key: 'organization', order: 'asc' });
  const [actionError, setActionError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<OrganizationRow | null>(null);
  const [signingIn, setSigningIn] = useState<number | null>(null);
  const client = useQueryClient();
  // Issue 36: the search runs on the server (paged like the whole list) once typing rests.
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const query = useInfiniteQuery({
    queryKey: customersListKey(sort.key, sort.order, search),
    queryFn: ({ pageParam }) => listCustomers(pageParam, sort.key, sort.order, search),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length === ORGANIZATIONS_PAGE_SIZE ? pages.reduce((n, page) => n + page.length, 0) : undefined),
    // Another sort order or search keeps the rows on screen until its first page arrives.
    placeholderData: keepPreviousData,
  });
  // A row that moved between pages while paging is listed once.
  const rows = query.data ? query.data.pages.flat().filter((row, i, all) => all.findIndex((r) => r.id === row.id) === i) : query.isError ? [] : null;
  // A§8: a failed customer load shows as empty, and the reason is reported.
  const error = actionError ?? (query.error ? errorMessage(query.error) : null);

  const remove = useMutation({
    mutationFn: (row: OrganizationRow) => deleteOrganization(row.id),
    onSuccess: (_, row) => {
      client.setQueriesData<{ pages: OrganizationRow[][]; pageParams: unknown[] }>(
        { queryKey: customersListsKey() },
        (data) => data && { ...data, pages: data.pages.map((page) => page.filter((r) => r.id !== row.id)) },
      );
      // The organization leaves every staff list, its projects leave the dashboard.
      void client.invalidateQueries({ queryKey: queryKeys.staff('customers') });
      void client.invalidateQueries({ queryKey: queryKeys.staff('onboarding') });
      void client.invalidateQueries({ queryKey: queryKeys.dashboard() });
      void client.invalidateQueries({ queryKey: queryKeys.organization(row.id) });
    },
  });

  const logInAs = async (row: OrganizationRow) => {
    setSigningIn(row.id);
    setActionError(null);
    try {
      await startImpersonation(row.id);
      navigate(pathTo('projects'), { replace: true });
    } catch (e) {
      setActionError(errorMessage(e));
      setSigningIn(null);
    }
  };

  const columns: Column<OrganizationRow>[] = [
    { key: 'name', header: 'Name', sortKey: 'name', nowrap: true, cell: (r) => (r.owner ? fullName(r.owner) : <span className="text-muted">No owner</span>) },
    {
      key: 'organization',
      header: 'Organization',
      sortKey: 'organization',
      cell: (r) => (
        <Link href={pathTo('organization', { id: r.id })} className="strong-link">
          {r.name}
        </Link>
      ),
    },
    { key: 'expiry', header: 'Credits expire on', sortKey: 'expiry', cell: (r) => <ExpiryCell endDate={r.endDate} /> },
    { key: 'plan', header: 'Plan', cell: (r) => <PlanCell row={r} /> },
    { key: 'email', header: 'Email', sortKey: 'email', cell: (r) => r.owner?.email ?? '—' },
    { key: 'created', header: 'Created', nowrap: true, cell: (r) => formatDate(r.createdAt) },
    { key: 'phone', header: 'Phone', sortKey: 'phone', nowrap: true, cell: (r) => r.owner?.phone ?? '—' },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      nowrap: true,
      cell: (r) => (
        <span className="row-actions">
          {canManage && (
            <Button
              variant="secondary"
              className="btn-small"
              onClick={() => void logInAs(r)}
              busy={signingIn === r.id}
              disabled={signingIn !== null || !r.owner}
              aria-label={`Log In As ${r.name}`}
            >
              <Icon name="login" size={16} />
              Log In As
            </Button>
          )}
          {canManage && (
            <Button variant="ghost" className="btn-small btn-danger-ghost" onClick={() => setDeleting(r)} aria-label={`Delete ${r.name}`}>
              <Icon name="trash" size={16} />
              Delete
            </Button>
          )}
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Customers"
        subtitle="Organizations, their owners and when their credits expire."
        actions={
          <label className="search-box">
            <Icon name="search" size={18} />
            <input
              type="search"
              aria-label="Search customers"
              placeholder="Search organization, name or e-mail"
              maxLength={ORGANIZATION_SEARCH_MAX}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </label>
        }
      />
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <div className="table-card customers-card">
        <DataTable
          label="Customers"
          columns={columns}
          rows={rows ?? []}
          rowKey={(r) => r.id}
          loading={rows === null}
          sort={sort}
          onSort={(next) => setSort(next as SortState<OrganizationSort>)}
          details={(r) => <CustomerDetails row={r} />}
          onRowClick={(r) => navigate(pathTo('organization', { id: r.id }))}
          empty={search ? `No customers match “${search}”.` : 'No customers yet.'}
        />
      </div>
      <MoreButton visible={query.hasNextPage && rows !== null} busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
        Get more customers
      </MoreButton>
      {deleting && (
        <ConfirmModal
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete"
          cancelLabel="Cancel"
          variant="danger"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            try {
              await remove.mutateAsync(deleting);
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>The organization and all its users lose access at once, and it disappears from every list.</p>
        </ConfirmModal>
      )}
    </>
  );
}
