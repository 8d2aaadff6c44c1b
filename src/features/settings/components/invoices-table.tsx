import { useState } from 'react';
import type { InvoiceView, SubscriptionView } from '@/domain/contract/billing.ts';
import { MESSAGES } from '@/domain/messages.ts';
import { formatDate, formatMoney } from '@/lib/format.ts';
import { Badge, type BadgeTone } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { DataTable } from '@/ui/data-table.tsx';
import { Icon } from '@/ui/icons.tsx';
import { downloadInvoicePdf } from '@/shared/billing/invoice-pdf.ts';

const TONES: Record<InvoiceView['status'], BadgeTone> = { paid: 'success', failed: 'danger', refunded: 'neutral' };

/** The subscription's invoices, newest first, each downloadable as a PDF made in the browser. */
export function InvoicesTable({ subscription, organizationName }: { subscription: SubscriptionView; organizationName: string }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (invoice: InvoiceView) => {
    setBusy(invoice.number);
    setError(null);
    try {
      await downloadInvoicePdf({ invoice, subscription, organizationName });
    } catch {
      setError(MESSAGES.generic);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="card invoices-card" aria-label="Invoices">
      <header className="card-head">
        <h2>Invoices</h2>
      </header>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <DataTable
        label="Invoices"
        rows={subscription.invoices}
        rowKey={(invoice) => invoice.number}
        empty="No invoices yet."
        columns={[
          { key: 'number', header: 'Number', cell: (i) => <span className="strong-link">{i.number}</span>, nowrap: true },
          { key: 'date', header: 'Date', cell: (i) => formatDate(i.paidAt ?? i.periodStart), nowrap: true },
          { key: 'period', header: 'Period', cell: (i) => `${formatDate(i.periodStart)} – ${formatDate(i.periodEnd)}`, nowrap: true },
          { key: 'amount', header: 'Amount', cell: (i) => formatMoney(i.amount, i.currency), align: 'right', nowrap: true },
          { key: 'status', header: 'Status', cell: (i) => <Badge tone={TONES[i.status]}>{i.status}</Badge> },
          {
            key: 'pdf',
            header: <span className="sr-only">Download</span>,
            align: 'right',
            nowrap: true,
            cell: (i) => (
              <Button
                variant="secondary"
                className="btn-small"
                busy={busy === i.number}
                disabled={busy !== null}
                onClick={() => void download(i)}
                aria-label={`Download PDF of invoice ${i.number}`}
              >
                <Icon name="download" size={16} /> Download PDF
              </Button>
            ),
          },
        ]}
      />
    </section>
  );
}
