import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBriefPdf, type BriefPdfInput } from '../../workers/brief-pdf.ts';
import { EVERY_SCRIPT, missingScripts, fontsFromDisk } from '../support/pdf-scripts.ts';

const exec = promisify(execFile);
let dir: string;
/** The brief as the media worker makes it: with the fonts its text needs. */
const build = async (input: BriefPdfInput) => buildBriefPdf(input, await fontsFromDisk(input));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cutdesk-pdf-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Text and page count of a PDF, read by poppler (an independent reader). */
async function readPdf(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const file = join(dir, `brief-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  const { stdout: text } = await exec('pdftotext', ['-layout', file, '-']);
  const { stdout: info } = await exec('pdfinfo', [file]);
  return { text, pages: Number(/Pages:\s+(\d+)/.exec(info)![1]) };
}

const base = { projectId: 42, createdBy: 'Olivia Owner', name: 'Spring launch teaser', audience: 'New customers', goal: 'Sign-ups', length: '0-60 seconds' };

describe('brief PDF', () => {
  it('holds every field of the brief on one page when it is short', async () => {
    const pdf = await build({ ...base, brief: 'Fast cuts, bright colours, our logo at the end.' });
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    const { text, pages } = await readPdf(pdf);
    expect(pages).toBe(1);
    for (const value of [
      'Created by',
      'Olivia Owner',
      'Spring launch teaser',
      'Audience',
      'New customers',
      'Goal',
      'Sign-ups',
      'Length',
      '0-60 seconds',
      'Brief',
      'Fast cuts, bright colours, our logo at the end.',
    ]) {
      expect(text).toContain(value);
    }
  });

  it('paginates a long brief, keeping every paragraph', async () => {
    const paragraphs = Array.from(
      { length: 120 },
      (_v, i) => `Paragraph ${i + 1}: the interview opens on the founder in the workshop, then cuts to the product close-ups.`,
    );
    const { text, pages } = await readPdf(await build({ ...base, brief: paragraphs.join('\n') }));
    expect(pages).toBeGreaterThan(2);
    expect(text).toContain('Paragraph 1:');
    expect(text).toContain('Paragraph 120:');
    expect(text).toContain(`Page ${pages} of ${pages}`);
  });

  it('renders non-Latin text with the embedded font', async () => {
    const brief = 'Интервью с основателем. Συνέντευξη με τον ιδρυτή. Ünïcødé façade — €12.';
    const { text } = await readPdf(await build({ ...base, audience: 'Клиенты', brief }));
    expect(text).toContain('Интервью с основателем.');
    expect(text).toContain('Συνέντευξη με τον ιδρυτή.');
    expect(text).toContain('Ünïcødé façade — €12.');
    expect(text).toContain('Клиенты');
  });

  it('draws every script the page shows, CJK and emoji too, in the title and the fields (issue 36)', async () => {
    const { text } = await readPdf(await build({ ...base, name: `Teaser ${EVERY_SCRIPT}`, goal: EVERY_SCRIPT, brief: `Opening: ${EVERY_SCRIPT}` }));
    expect(missingScripts(text)).toEqual([]);
    // Title, the name row, goal and brief: each word four times.
    expect(text.normalize('NFKC').match(/日本語/g)).toHaveLength(4);
    expect(text.match(/🎬/g)).toHaveLength(4);
  });

  it('reads the CJK and emoji fonts only for a text that has such characters', async () => {
    expect([...(await fontsFromDisk({ ...base, brief: 'Ünïcødé Ελληνικά Кириллица עברית العربية' })).fonts.keys()]).toEqual([
      'DejaVuSans.ttf',
      'DejaVuSans-Bold.ttf',
    ]);
    expect([...(await fontsFromDisk({ ...base, brief: 'Logo 👍' })).fonts.keys()]).toEqual(['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'Symbola.ttf']);
    expect([...(await fontsFromDisk({ ...base, brief: '日本語' })).fonts.keys()]).toEqual(['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DroidSansFallback.ttf']);
  });
});
