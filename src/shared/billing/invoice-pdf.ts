import type { InvoiceView, SubscriptionView } from '@/domain/contract/billing.ts';
import { formatDate, formatMoney } from '@/lib/format.ts';
import { SUPPORT_EMAIL } from '@/ui/constants.ts';
import { mediaWorker } from '../media/media-worker.ts';
import { saveBlob } from '../media/start-download.ts';

const STATUS: Record<InvoiceView['status'], string> = { paid: 'Paid', refunded: 'Refunded', failed: 'Payment failed' };
const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** "United States" for "US"; the code itself when the browser does not know it. */
function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** The subscription's billing details as address lines, or the organization's name when there are none. */
function billedTo(billing: Record<string, string> | undefined, organizationName: string): string[] {
  const value = (field: string) => billing?.[field]?.trim() ?? '';
  const lines = [
    value('name'),
    value('company'),
    value('address'),
    [value('city'), value('code')].filter(Boolean).join(', '),
    value('country') && countryName(value('country')),
    value('email'),
  ].filter(Boolean);
  return lines.length > 0 ? lines : [organizationName];
}

/**
 * Saves `invoice-<number>.pdf`, made in the media worker (jsPDF, src/domain/pdf-text.ts's font chain): seller,
 * number, date paid, status, billed to, the plan and its period, total and card. The API sends
 * the amount charged only, not the list price and coupon, so no discount line is printed.
 */
export async function downloadInvoicePdf(input: { invoice: InvoiceView; subscription: SubscriptionView; organizationName: string }): Promise<void> {
  const { invoice, subscription, organizationName } = input;
  const card = subscription.card;
  const bytes = await mediaWorker().invoicePdf({
    number: invoice.number,
    status: STATUS[invoice.status],
    datePaid: formatDate(invoice.paidAt),
    seller: ['Cutdesk', SUPPORT_EMAIL],
    billedTo: billedTo(subscription.billing, organizationName),
    lines: [
      {
        description: `${subscription.plan.name} plan, yearly subscription`,
        period: `${formatDate(invoice.periodStart)} – ${formatDate(invoice.periodEnd)}`,
        amount: formatMoney(invoice.amount, invoice.currency),
      },
    ],
    total: formatMoney(invoice.amount, invoice.currency),
    currency: invoice.currency.toUpperCase(),
    paymentMethod: card ? `${BRANDS[card.brand.toLowerCase()] ?? 'Card'} ending in ${card.last4}` : null,
  });
  saveBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), `invoice-${invoice.number.replace(/[^\w.-]+/g, '-')}.pdf`);
}
