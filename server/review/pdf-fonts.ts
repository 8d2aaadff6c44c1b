import { readFile } from 'node:fs/promises';
import { loadPdfFontSet, type PdfFontFile, type PdfFontSet } from '../../src/domain/pdf-text.ts';

/**
 * The fonts of the PDFs the server makes: the files the browser's PDFs embed (workers/fonts),
 * read from disk on first need and kept. The chain and how a document picks its fonts are in
 * src/domain/pdf-text.ts: DejaVu Sans always; Droid Sans Fallback (CJK, 3.4 MB) and Symbola
 * (emoji and symbols, 3.2 MB) only for a document whose text needs them. jsPDF embeds only the
 * glyphs used. What no font has is written as its code point, so no word of a customer's
 * silently vanishes.
 */

/** One font file from disk (src/domain/pdf-text.ts keeps what it made of it, so each is read once). */
export async function readFontFile(file: PdfFontFile): Promise<{ bytes: Uint8Array; base64: string }> {
  const buffer = await readFile(new URL(`../../workers/fonts/${file}`, import.meta.url));
  return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), base64: buffer.toString('base64') };
}

/** The fonts for a document that writes `text` (all of its strings). */
export function loadServerPdfFonts(text: string): Promise<PdfFontSet> {
  return loadPdfFontSet(text, readFontFile);
}
