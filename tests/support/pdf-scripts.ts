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
 * What of EVERY_SCRIPT a PDF's text (as poppler's pdftotext reads it) lacks: each word must be
 * there, and no character replaced by its code point ("[U+…]"). pdftotext gives Arabic as the
 * joined letter forms the page shows (presentation forms): compatibility-normalised (NFKC), they
 * are the letters typed. Empty when every script came through.
 */
export function missingScripts(text: string): string[] {
  const normalised = text.normalize('NFKC');
  const missing = ['naïve', 'Ελληνικά', 'Кириллица', '日本語', '한국어', '中文', 'עברית', 'العربية', '🎬', '👍'].filter((word) => !normalised.includes(word));
  return text.includes('[U+') ? [...missing, '[U+'] : missing;
}
