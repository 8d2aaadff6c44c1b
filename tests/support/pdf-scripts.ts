import { expect } from 'vitest';
import { loadPdfFontSet, textsOf, type PdfFontSet } from '../../src/domain/pdf-text.ts';
import { readFontFile } from '../../server/review/pdf-fonts.ts';

/**
 * Issue 36: every PDF renders every script the UI shows. One sample line with each script a
 * customer may type (Latin with diacritics, Greek, Cyrillic, CJK, Korean, Hebrew, Arabic, emoji),
 * the words it must read back as, and the fonts read from disk as the server reads them.
 */
export const EVERY_SCRIPT = 'naïve Ελληνικά Кириллица 日本語 한국어 中文 עברית العربية 🎬👍';

/** The fonts a document writing `input`'s strings gets (the worker fetches the same files). */
export const fontsFromDisk = (input: unknown): Promise<PdfFontSet> => loadPdfFontSet(textsOf(input), readFontFile);

/**
 * Checks a PDF's text as poppler's pdftotext reads it: each word of EVERY_SCRIPT is there, and no
 * character was replaced by its code point. pdftotext gives Arabic as the joined letter forms the
 * page shows (presentation forms): compatibility-normalised (NFKC), they are the letters typed.
 */
export function expectEveryScript(text: string): void {
  const normalised = text.normalize('NFKC');
  for (const word of ['naïve', 'Ελληνικά', 'Кириллица', '日本語', '한국어', '中文', 'עברית', 'العربية', '🎬', '👍']) expect(normalised, word).toContain(word);
  expect(text).not.toContain('[U+');
}

