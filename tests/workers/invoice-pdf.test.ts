import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInvoicePdf, type InvoicePdfInput } from '../../workers/invoice-pdf.ts';
import { EVERY_SCRIPT, missingScripts, fontsFromDisk } from '../support/pdf-scripts.ts';

const exec = promisify(execFile);
let dir: string;
/** The invoice as the media worker makes it: with the fonts its text needs. */
const build = async (input: InvoicePdfInput) => buildInvoicePdf(input, await fontsFromDisk(input));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cutdesk-invoice-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Text and page count of a PDF, read by poppler (an independent reader). */
async function readPdf(bytes: Uint8Array): Promise<{ text: string; pages: number; title: string }> {
  const file = join(dir, `invoice-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  const { stdout: text } = await exec('pdftotext', ['-layout', file, '-']);
  const { stdout: info } = await exec('pdfinfo', [file]);
  return { text, pages: Number(/Pages:\s+(\d+)/.exec(info)![1]), title: /Title:\s+(.*)/.exec(info)?.[1] ?? '' };
}

const base: InvoicePdfInput = {
  number: 'CD-2026-000042',
  status: 'Paid',
  datePaid: 'Nov 23, 2026',
  seller: ['Cutdesk', 'support@cutdesk.test'],
  billedTo: ['Bea Fern', 'Blue Fern Bakery', '12 Harbor Street', 'Portland, 97201', 'United States', 'billing@bluefern.test'],
  lines: [{ description: 'Growth plan, yearly subscription', period: 'Period: Nov 23, 2026 – Nov 23, 2027', amount: '$10,788.00' }],
  total: '$10,788.00',
  currency: 'USD',
  paymentMethod: 'Visa ending in 4242',
  generatedAt: new Date('2026-11-23T12:00:00Z'),
};

describe('invoice PDF', () => {
  it('holds seller, number, date, status, billed to, the line, total and card on one page', async () => {
    const pdf = await build(base);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    const { text, pages, title } = await readPdf(pdf);
    expect(pages).toBe(1);
    expect(title).toBe('Invoice CD-2026-000042');
    for (const value of [
      'Cutdesk',
      'support@cutdesk.test',
      'Invoice',
      'Invoice number',
      'CD-2026-000042',
      'Date paid',
      'Nov 23, 2026',
      'Status',
      'Paid',
      'BILLED TO',
      'Bea Fern',
      'Blue Fern Bakery',
      '12 Harbor Street',
      'Portland, 97201',
      'United States',
      'billing@bluefern.test',
      'Growth plan, yearly subscription',
      'Period: Nov 23, 2026 – Nov 23, 2027',
      'Total (USD)',
      'Visa ending in 4242',
      'Page 1 of 1',
    ]) {
      expect(text).toContain(value);
    }
    // The amount on the line and the total.
    expect(text.match(/\$10,788\.00/g)).toHaveLength(2);
  });

  it('prints names and addresses in any script, and drops control characters', async () => {
    const { text } = await readPdf(
      await build({
        ...base,
        billedTo: ['Ольга Петрова', 'Ζαχαροπλαστείο Ωμέγα', 'Straße 5\u0007', 'Zürich, 8001'],
        total: '€1,200.50',
        currency: 'EUR',
        lines: [{ ...base.lines[0]!, amount: '€1,200.50' }],
      }),
    );
    expect(text).toContain('Ольга Петрова');
    expect(text).toContain('Ζαχαροπλαστείο Ωμέγα');
    expect(text).toContain('Straße 5');
    expect(text).not.toContain('\u0007');
    expect(text).toContain('Zürich, 8001');
    expect(text).toContain('Total (EUR)');
    expect(text).toContain('€1,200.50');
  });

  it('leaves out the card when none is known and shows an unpaid status', async () => {
    const { text } = await readPdf(await build({ ...base, status: 'Payment failed', datePaid: '—', paymentMethod: null }));
    expect(text).toContain('Payment failed');
    expect(text).not.toContain('PAYMENT METHOD');
    expect(text).not.toContain('ending in');
  });

  it('wraps a long address and description instead of running off the page', async () => {
    const long = 'Unit 4, The Old Brewery Yard, 221 Long Industrial Estate Road, Behind the Railway Station, North Side';
    const { text, pages } = await readPdf(
      await build({ ...base, billedTo: ['Bea Fern', long], lines: [{ ...base.lines[0]!, description: `Studio plan, yearly subscription — ${long}` }] }),
    );
    expect(pages).toBe(1);
    expect(text).toContain('North Side');
    expect(text).toContain('Unit 4, The Old');
  });

  it('prints a name, address and plan line in every script the page shows, CJK and emoji too (issue 36)', async () => {
    const { text, pages } = await readPdf(
      await build({ ...base, billedTo: [EVERY_SCRIPT, 'Blue Fern Bakery'], lines: [{ ...base.lines[0]!, description: `Growth plan ${EVERY_SCRIPT}` }] }),
    );
    expect(pages).toBe(1);
    expect(missingScripts(text)).toEqual([]);
    expect(text).toContain('Blue Fern Bakery');
    expect(text.match(/👍/g)).toHaveLength(2);
  });
});
