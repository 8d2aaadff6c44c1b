import { Link } from 'wouter';
import { businessToday } from '@/domain/business-calendar.ts';
import type { OrganizationRow } from '@/domain/contract/customers.ts';
import { expiryWarning } from '@/domain/subscription.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useQuery } from '@/lib/query.ts';
import { formatDate, plural } from '@/lib/format.ts';
import { Badge } from '@/ui/badge.tsx';
import { DataTable, type Column } from '@/ui/data-table.tsx';
import { expiringKey } from '../api/keys.ts';
import { listByExpiry } from '../api/list-expiring.ts';
import { pathTo } from '@/domain/pages.ts';

/** Credits tab: organizations whose credits expire within 91 days (or have expired), soonest first. */
export function ExpiringCredits() {
  const query = useQuery({ queryKey: expiringKey(), queryFn: listByExpiry });
  const rows = query.data ? query.data.filter((r) => expiryWarning(r.endDate, businessToday())) : query.isError ? [] : null;
  const error = query.error ? errorMessage(query.error) : null;
  const columns: Column<OrganizationRow>[] = [
    {
      key: 'organization',
      header: 'Organization',
      cell: (r) => (
        <Link href={pathTo('organization', { id: r.id })} className="strong-link">
          {r.name}
        </Link>
      ),
    },
    { key: 'end', header: 'Credits expire on', cell: (r) => formatDate(r.endDate) },
    {
      key: 'left',
      header: 'Remaining',
      cell: (r) => {
        const w = expiryWarning(r.endDate, businessToday())!;
        return <Badge tone={w.expired ? 'danger' : 'warning'}>{w.expired ? 'Expired' : plural(w.daysLeft, 'day')}</Badge>;
      },
    },
    { key: 'credits', header: 'Credits', cell: (r) => `${r.usedCredits} of ${r.activeCredits} used` },
    { key: 'renewable', header: 'Renews', cell: (r) => (r.renewDate ? formatDate(r.renewDate) : 'No') },
  ];
  return (
    <section className="card" aria-label="Credits expiring soon">
      <header className="card-head">
        <div>
          <h2>Credits expiring soon</h2>
          <p className="card-sub">Organizations whose credits end within 91 days. Open one to extend its plan.</p>
        </div>
      </header>
      {error && <div className="form-error">{error}</div>}
      <DataTable
        label="Credits expiring soon"
        columns={columns}
        rows={rows ?? []}
        rowKey={(r) => r.id}
        loading={rows === null}
        empty="No credits expire in the next 91 days."
      />
    </section>
  );
}
