import type { InvoiceView } from '@/domain/contract/billing.ts';
import type { StaffOrganization } from '@/domain/contract/customers.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useQuery } from '@/lib/query.ts';
import { formatDate, formatMoney } from '@/lib/format.ts';
import { Badge } from '@/ui/badge.tsx';
import { DataTable, type Column } from '@/ui/data-table.tsx';
import { listSubscriptions } from '@/shared/billing/api/list-subscriptions.ts';
import { organizationKeys } from '../api/keys.ts';

const STATUS_TONE = { active: 'success', canceled: 'warning', inactive: 'neutral' } as const;
const INVOICE_TONE = { paid: 'success', failed: 'danger', refunded: 'neutral' } as const;
const BRAND: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

type InvoiceRow = InvoiceView & { plan: string };

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** "Studio kit, ordered Mar 5, 2027" from the organization's onboarding kit (set by its first purchase). */
function kitText(o: StaffOrganization): string {
  if (!o.kitOrdered) return 'Not ordered';
  return `${o.kitType ?? 'Kit'}, ordered ${formatDate(o.kitOrderedAt)}`;
}

function address(billing: Record<string, string>): string[] {
  const cityLine = [billing.code, billing.city].filter(Boolean).join(' ');
  return [billing.name, billing.company, billing.address, [cityLine, billing.country].filter(Boolean).join(', ')].filter((line): line is string =>
    Boolean(line),
  );
}

const invoiceColumns: Column<InvoiceRow>[] = [
  { key: 'number', header: 'Invoice', nowrap: true, cell: (i) => <span className="invoice-number">{i.number}</span> },
  { key: 'date', header: 'Date', nowrap: true, cell: (i) => formatDate(i.paidAt ?? i.periodStart) },
  { key: 'period', header: 'Period', nowrap: true, cell: (i) => `${formatDate(i.periodStart)} – ${formatDate(i.periodEnd)}` },
  { key: 'amount', header: 'Amount', align: 'right', nowrap: true, cell: (i) => formatMoney(i.amount, i.currency) },
  { key: 'status', header: 'Status', cell: (i) => <Badge tone={INVOICE_TONE[i.status]}>{i.status}</Badge> },
];

/**
 * The organization's subscription as staff see it: plan, status, term, card, billing contact,
 * onboarding kit and invoices. The newest subscription is the current one; the invoices of
 * earlier ones stay listed.
 */
export function SubscriptionPanel({ organization }: { organization: StaffOrganization }) {
  const query = useQuery({ queryKey: organizationKeys.subscriptions(organization.id), queryFn: () => listSubscriptions(organization.id) });
  // A list that failed to load shows as none, with the reason above it.
  const subscriptions = query.data ?? (query.isError ? [] : null);
  const error = query.error ? errorMessage(query.error) : null;

  const current = subscriptions?.[0];
  const status = current?.status ?? organization.subscriptionStatus;
  const invoices: InvoiceRow[] = (subscriptions ?? [])
    .flatMap((s) => s.invoices.map((i) => ({ ...i, plan: s.plan.name })))
    .sort((a, b) => (b.paidAt ?? b.periodStart).localeCompare(a.paidAt ?? a.periodStart));
  const billing = current?.billing ?? {};
  const billingLines = address(billing);
  const renewableAt = current?.renewableAt ?? organization.renewableAt;
  const cancelled = current?.isCancelled ?? organization.isCancelled;

  return (
    <section className="card subscription-panel" aria-label="Subscription">
      <header className="card-head">
        <h2>Subscription</h2>
        <Badge tone={STATUS_TONE[status]} title="Subscription status">
          {status}
        </Badge>
      </header>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      {subscriptions === null ? (
        <span className="spinner" role="status" aria-label="Loading subscription" />
      ) : !current ? (
        <>
          <div className="subscription-empty">
            {/* A term set by staff is a subscription in force (the page's badge says active): only the purchase is missing. */}
            <strong>{organization.subscriptionStatus === 'inactive' ? 'No subscription' : 'Term set by staff'}</strong>
            <span>
              {organization.subscriptionStatus === 'inactive'
                ? 'This organization has not bought a plan.'
                : `Nothing was bought at checkout: the term was set by staff and ${cancelled ? 'ends' : 'renews'} on ${formatDate(renewableAt)}.`}
            </span>
          </div>
          <dl className="kv">
            <Row label="Onboarding kit">{kitText(organization)}</Row>
          </dl>
        </>
      ) : (
        <>
          {current.state === 'past_due' && (
            <p className="expiry-warning" role="status">
              The yearly payment failed; it is being tried again.
            </p>
          )}
          <dl className="kv subscription-kv">
            <Row label="Plan">{organization.planName ?? current.plan.name}</Row>
            <Row label="Paid">
              {formatMoney(current.amount, current.currency)} <span className="text-muted">since {formatDate(current.startDate)}</span>
            </Row>
            <Row label={cancelled ? 'Ends on' : 'Renews on'}>{formatDate(renewableAt)}</Row>
            <Row label="Cancelled">{cancelled ? <Badge tone="warning">Yes, at the term's end</Badge> : 'No'}</Row>
            <Row label="Card">
              {current.card ? (
                <>
                  {BRAND[current.card.brand] ?? current.card.brand} •••• {current.card.last4}{' '}
                  <span className="text-muted">
                    exp. {String(current.card.expMonth).padStart(2, '0')}/{String(current.card.expYear).slice(-2)}
                  </span>
                </>
              ) : (
                '—'
              )}
            </Row>
            <Row label="Billing e-mail">{billing.email ? <a href={`mailto:${billing.email}`}>{billing.email}</a> : '—'}</Row>
            <Row label="Billing address">
              {billingLines.length ? (
                <span className="address-lines">
                  {billingLines.map((line) => (
                    <span key={line}>{line}</span>
                  ))}
                </span>
              ) : (
                '—'
              )}
            </Row>
            <Row label="Onboarding kit">{kitText(organization)}</Row>
          </dl>
          <h3 className="subscription-subhead">Invoices</h3>
          <DataTable label="Invoices" columns={invoiceColumns} rows={invoices} rowKey={(i) => i.number} empty="No invoices yet." />
        </>
      )}
    </section>
  );
}
