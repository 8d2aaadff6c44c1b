import { jsPDF } from 'jspdf';
import { PDF_FONT_FAMILY, embedPdfFonts, pdfText, type PdfFontSet } from '@/domain/pdf-text.ts';

/**
 * A subscription invoice as a PDF (issue 11): seller, number, date paid, status, billed to,
 * the plan line with its period, total and the card. The page (src/shared/billing) formats
 * money and dates with the app's formatters and passes display text, so the invoice reads
 * exactly like the screens. The brief's font chain (src/domain/pdf-text.ts) draws every name and
 * address, in any script the page shows.
 */

export interface InvoiceLine {
  description: string;
  /** "Mar 5, 2027 – Mar 5, 2028". */
  period: string;
  amount: string;
}

export interface InvoicePdfInput {
  number: string;
  /** "Paid", "Refunded", "Payment failed". */
  status: string;
  /** A date, or "—" when the invoice was never paid. */
  datePaid: string;
  /** The seller: its name first, then contact lines. */
  seller: string[];
  /** The customer's name, company, address… one line each; empty lines are left out. */
  billedTo: string[];
  lines: InvoiceLine[];
  /** "$10,788.00". */
  total: string;
  /** "USD". */
  currency: string;
  /** "Visa ending in 4242", or null when no card is known. */
  paymentMethod: string | null;
  /** Shown in the footer. */
  generatedAt?: Date;
}

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const BODY = 10.5;
const LINE = BODY * 1.5;
const INK = '#1f2226';
const HEAD = '#464A4F';
const MUTED = '#6b7278';
const RULE = '#dfe3e7';

/** One line of text without control characters (names and addresses come from a form). */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** The PDF's bytes. */
export function buildInvoicePdf(input: InvoicePdfInput, fonts: PdfFontSet): Uint8Array {
  const doc = new jsPDF({ unit: 'pt', format: 'a4', compress: true });
  embedPdfFonts(doc, fonts);
  const writer = pdfText(doc, fonts, jsPDF);
  doc.setProperties({ title: `Invoice ${clean(input.number)}`, subject: 'Subscription invoice', creator: 'Cutdesk' });

  const right = PAGE.width - MARGIN;
  const width = right - MARGIN;
  const bottom = PAGE.height - MARGIN - 20;
  let y = MARGIN;
  const font = (style: 'normal' | 'bold', size: number, colour: string) => {
    doc.setFont(PDF_FONT_FAMILY, style);
    doc.setFontSize(size);
    doc.setTextColor(colour);
  };
  const ensure = (height: number) => {
    if (y + height > bottom) {
      doc.addPage();
      y = MARGIN;
    }
  };
  const wrap = (text: string, maxWidth: number) => writer.wrap(clean(text) || '—', maxWidth);

  // Seller on the left, the invoice's title and facts on the right.
  const [sellerName = 'Cutdesk', ...sellerLines] = input.seller.map(clean).filter(Boolean);
  font('bold', 22, HEAD);
  writer.draw(sellerName, MARGIN, y + 20);
  font('bold', 22, HEAD);
  doc.text('Invoice', right, y + 20, { align: 'right' });
  let left = y + 40;
  font('normal', BODY, MUTED);
  for (const line of sellerLines) {
    writer.draw(line, MARGIN, left);
    left += LINE;
  }
  let facts = y + 40;
  const factLabelX = right - 200;
  for (const [label, value] of [
    ['Invoice number', input.number],
    ['Date paid', input.datePaid],
    ['Status', input.status],
  ] as const) {
    font('normal', BODY, MUTED);
    doc.text(label, factLabelX, facts);
    font('bold', BODY, INK);
    writer.draw(clean(value) || '—', right, facts, 'right');
    facts += LINE;
  }
  y = Math.max(left, facts) + 18;

  // Billed to.
  font('bold', 9, MUTED);
  doc.text('BILLED TO', MARGIN, y);
  y += LINE;
  input.billedTo
    .map(clean)
    .filter(Boolean)
    .forEach((value, index) => {
      font(index === 0 ? 'bold' : 'normal', BODY, INK);
      for (const line of wrap(value, width / 2)) {
        ensure(LINE);
        writer.draw(line, MARGIN, y);
        y += LINE;
      }
    });
  y += 22;

  // The lines: description with its period below it, and the amount.
  const header = () => {
    doc.setFillColor('#f1f3f5');
    doc.rect(MARGIN, y - 13, width, 22, 'F');
    font('bold', 9, MUTED);
    doc.text('DESCRIPTION', MARGIN + 10, y + 1);
    doc.text('AMOUNT', right - 10, y + 1, { align: 'right' });
    y += 28;
  };
  const textWidth = width - 150;
  ensure(60);
  header();
  for (const item of input.lines) {
    const description = wrap(item.description, textWidth);
    const period = wrap(`Period: ${item.period}`, textWidth);
    if (y + (description.length + period.length) * LINE > bottom) {
      doc.addPage();
      y = MARGIN + 13;
      header();
    }
    font('normal', BODY, INK);
    writer.draw(clean(item.amount), right - 10, y, 'right');
    font('bold', BODY, INK);
    for (const line of description) {
      writer.draw(line, MARGIN + 10, y);
      y += LINE;
    }
    font('normal', 9.5, MUTED);
    for (const line of period) {
      writer.draw(line, MARGIN + 10, y);
      y += LINE;
    }
    doc.setDrawColor(RULE);
    doc.setLineWidth(0.75);
    doc.line(MARGIN, y - 2, right, y - 2);
    y += 14;
  }

  // Total.
  ensure(70);
  y += 6;
  const totalsX = right - 220;
  font('bold', 12, HEAD);
  writer.draw(`Total (${clean(input.currency)})`, totalsX, y);
  writer.draw(clean(input.total), right - 10, y, 'right');
  y += 10;
  doc.setDrawColor(HEAD);
  doc.setLineWidth(1.2);
  doc.line(totalsX, y, right, y);
  y += 34;

  // Payment.
  if (input.paymentMethod) {
    ensure(LINE * 2);
    font('bold', 9, MUTED);
    doc.text('PAYMENT METHOD', MARGIN, y);
    y += LINE;
    font('normal', BODY, INK);
    writer.draw(clean(input.paymentMethod), MARGIN, y);
    y += LINE;
  }

  const pages = doc.getNumberOfPages();
  const stamp = (input.generatedAt ?? new Date()).toISOString().slice(0, 10);
  for (let page = 1; page <= pages; page += 1) {
    doc.setPage(page);
    font('normal', 8.5, '#8a9197');
    writer.draw(`${sellerName} · invoice ${clean(input.number)} · ${stamp}`, MARGIN, PAGE.height - 28);
    doc.text(`Page ${page} of ${pages}`, right, PAGE.height - 28, { align: 'right' });
  }
  return new Uint8Array(doc.output('arraybuffer'));
}
