import type { jsPDF } from 'jspdf';

/** DejaVu Sans, regular and bold: it draws every script our customers type (the brief, the invoice). */
export interface PdfFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

/** Embeds the fonts in `doc` as the family "DejaVu" (normal and bold). */
export function embedFonts(doc: jsPDF, fonts: PdfFonts): void {
  doc.addFileToVFS('DejaVuSans.ttf', base64(fonts.regular));
  doc.addFont('DejaVuSans.ttf', 'DejaVu', 'normal');
  doc.addFileToVFS('DejaVuSans-Bold.ttf', base64(fonts.bold));
  doc.addFont('DejaVuSans-Bold.ttf', 'DejaVu', 'bold');
}

/** The font files shipped with the worker (workers/fonts), fetched when a PDF is first made. */
export async function loadPdfFonts(): Promise<PdfFonts> {
  const [regular, bold] = await Promise.all(
    [new URL('./fonts/DejaVuSans.ttf', import.meta.url), new URL('./fonts/DejaVuSans-Bold.ttf', import.meta.url)].map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`The PDF font could not be loaded (HTTP ${response.status}).`);
      return new Uint8Array(await response.arrayBuffer());
    }),
  );
  return { regular: regular!, bold: bold! };
}
