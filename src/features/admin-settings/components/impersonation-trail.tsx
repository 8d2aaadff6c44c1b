import { Link } from 'wouter';
import { IMPERSONATIONS_LIMIT, impersonationSeconds, type Impersonation } from '@/domain/contract/impersonations.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useInfiniteQuery } from '@/lib/query.ts';
import { Badge } from '@/ui/badge.tsx';
import { DataTable, MoreButton, type Column } from '@/ui/data-table.tsx';
import { useNow } from '@/ui/use-now.ts';
import { impersonationsKey, listImpersonations } from '../api/list-impersonations.ts';
import { pathTo } from '@/domain/pages.ts';

const WHEN = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** "45 s", "12 min", "1 h 05 min", "2 d 3 h". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

function Duration({ row, now }: { row: Impersonation; now: number }) {
  const seconds = impersonationSeconds(row, now);
  if (row.endedBy === 'unknown' || seconds === null) return <span className="muted-cell">Not recorded</span>;
  const length = formatDuration(seconds);
  if (row.endedBy === null) return <Badge tone="info">Ongoing · {length}</Badge>;
  if (row.endedBy === 'expiry') {
    return (
      <span title={`No end was recorded: the session's token expired ${WHEN.format(new Date(row.endedAt!))}.`}>
        {length} <Badge tone="warning">Ended by expiry</Badge>
      </span>
    );
  }
  return <span title={`Ended ${WHEN.format(new Date(row.endedAt!))}`}>{length}</span>;
}

/**
 * Admin settings, "Log In As trail" tab (issue 36 item 10; shown to superadmins only, the server
 * refuses anyone else): who logged in as which organization, as whom, when and for how long.
 */
export function ImpersonationTrail() {
  const now = useNow(60_000).getTime();
  const query = useInfiniteQuery({
    queryKey: impersonationsKey(),
    queryFn: ({ pageParam }) => listImpersonations(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length === IMPERSONATIONS_LIMIT ? pages.reduce((n, page) => n + page.length, 0) : undefined),
  });
  const rows = query.data ? query.data.pages.flat().filter((row, i, all) => all.findIndex((r) => r.id === row.id) === i) : query.isError ? [] : null;
  const error = query.error ? errorMessage(query.error) : null;
  const columns: Column<Impersonation>[] = [
    { key: 'staff', header: 'Staff member', cell: (r) => <span className="strong">{r.staff.name}</span> },
    {
      key: 'organization',
      header: 'Organization',
      cell: (r) => (
        <Link href={pathTo('organization', { id: r.organization.id })} className="strong-link">
          {r.organization.name}
        </Link>
      ),
    },
    {
      key: 'customer',
      header: 'Signed in as',
      cell: (r) => (r.customer ? <span title={r.customer.email}>{r.customer.name}</span> : <span className="muted-cell">—</span>),
    },
    { key: 'start', header: 'Started', nowrap: true, cell: (r) => WHEN.format(new Date(r.startedAt)) },
    { key: 'duration', header: 'Duration', nowrap: true, cell: (r) => <Duration row={r} now={now} /> },
    { key: 'address', header: 'Client address', nowrap: true, cell: (r) => r.clientAddress ?? <span className="muted-cell">—</span> },
  ];
  return (
    <section className="card" aria-label="Log In As trail">
      <header className="card-head">
        <div>
          <h2>Log In As trail</h2>
          <p className="card-sub">Every time staff logged in as a customer organization, newest first. Only superadmins see this.</p>
        </div>
      </header>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <DataTable
        label="Log In As trail"
        columns={columns}
        rows={rows ?? []}
        rowKey={(r) => r.id}
        loading={rows === null}
        empty="No one has logged in as a customer yet."
      />
      <MoreButton visible={query.hasNextPage && rows !== null} busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
        Get more sessions
      </MoreButton>
    </section>
  );
}
