import { readFile } from 'node:fs/promises';
import type { jsPDF } from 'jspdf';

/**
 * DejaVu Sans for PDFs the server makes: the files the browser's PDFs embed (workers/fonts), read
 * from disk once. It draws Latin, Greek, Cyrillic, Hebrew, Arabic and many symbols; what it has no
 * glyph for (emoji, CJK) is written as its code point, so no word of a customer's silently vanishes.
 */

export interface ServerPdfFonts {
  regular: string;
  bold: string;
}

export const PDF_FONT_FAMILY = 'DejaVu';

let loading: Promise<ServerPdfFonts> | null = null;

/** The two font files as base64 (what jsPDF's virtual file system takes), loaded on first use. */
export function loadServerPdfFonts(): Promise<ServerPdfFonts> {
  loading ??= Promise.all(
    ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map(async (name) => (await readFile(new URL(`../../workers/fonts/${name}`, import.meta.url))).toString('base64')),
  ).then(([regular, bold]) => ({ regular: regular!, bold: bold! }));
  // A failed read is not kept: the next document tries again.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

export function embedServerFonts(doc: jsPDF, fonts: ServerPdfFonts): void {
  doc.addFileToVFS('DejaVuSans.ttf', fonts.regular);
  doc.addFont('DejaVuSans.ttf', PDF_FONT_FAMILY, 'normal');
  doc.addFileToVFS('DejaVuSans-Bold.ttf', fonts.bold);
  doc.addFont('DejaVuSans-Bold.ttf', PDF_FONT_FAMILY, 'bold');
}

/** jsPDF's parsed TrueType font (not in its typings): its Unicode → glyph map. */
interface ParsedFont {
  metadata?: { cmap?: { unicode?: { codeMap?: Record<number, number> } } };
}

/** Characters that only change how the one before looks (emoji variation selector, joiner): dropped when the font lacks them. */
const isInvisible = (code: number) => code === 0x200c || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f);

/**
 * `text` with every character the current font cannot draw replaced by "[U+1F3B5]": jsPDF would
 * otherwise leave it out of the page and the text layer alike. Unchanged when the font's map is
 * not readable (a jsPDF that keeps it elsewhere): then nothing is lost that was not lost before.
 */
export function drawableText(doc: jsPDF, text: string): string {
  const codeMap = (doc.getFont() as ParsedFont).metadata?.cmap?.unicode?.codeMap;
  if (!codeMap) return text;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80 || codeMap[code]) out += char;
    else if (!isInvisible(code)) out += `[U+${code.toString(16).toUpperCase().padStart(4, '0')}]`;
  }
  return out;
}

/**
 * jsPDF's text options for a customer's line: read in logical order, reordered for display with
 * a left-to-right paragraph. Left to jsPDF's guess, a line that starts with Hebrew or Arabic is
 * taken as right-to-left and its Latin words come out backwards ("world" as "dlrow").
 */
export const LOGICAL_TEXT = { isInputVisual: false, isOutputVisual: true, isInputRtl: false, isOutputRtl: false } as const;
