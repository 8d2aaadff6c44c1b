import { loadPdfFontSet, type PdfFontFile, type PdfFontSet } from '@/domain/pdf-text.ts';

/**
 * The font files shipped with the worker (workers/fonts), fetched from the app's own origin when
 * a PDF first needs them (src/domain/pdf-text.ts picks them from the document's text): DejaVu
 * Sans for every PDF, the CJK and emoji fonts (several MB each) only for a text that has such
 * characters. They are not in the service worker's precache (vite.config.ts caches them on use).
 */
const URLS: Record<PdfFontFile, URL> = {
  'DejaVuSans.ttf': new URL('./fonts/DejaVuSans.ttf', import.meta.url),
  'DejaVuSans-Bold.ttf': new URL('./fonts/DejaVuSans-Bold.ttf', import.meta.url),
  'DroidSansFallback.ttf': new URL('./fonts/DroidSansFallback.ttf', import.meta.url),
  'Symbola.ttf': new URL('./fonts/Symbola.ttf', import.meta.url),
};

async function fetchFont(file: PdfFontFile): Promise<{ bytes: Uint8Array; base64: string }> {
  const response = await fetch(URLS[file]);
  if (!response.ok) throw new Error(`The PDF font could not be loaded (HTTP ${response.status}).`);
  const blob = await response.blob();
  // The browser's own base64 (a data: URL): a few MB through a script loop would take seconds.
  const dataUrl = new FileReaderSync().readAsDataURL(blob);
  return { bytes: new Uint8Array(await blob.arrayBuffer()), base64: dataUrl.slice(dataUrl.indexOf(',') + 1) };
}

/** The fonts for a document that writes `text` (all of its strings). */
export function loadPdfFonts(text: string): Promise<PdfFontSet> {
  return loadPdfFontSet(text, fetchFont);
}
