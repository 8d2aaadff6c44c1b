import { jsPDF } from 'jspdf';
import { PDF_FONT_FAMILY, embedPdfFonts, pdfText, type PdfFontSet } from '@/domain/pdf-text.ts';

/**
 * The brief as `brief.pdf` (A§2): created by, name, audience, goal, length, brief. jsPDF's
 * standard fonts only cover Latin-1, so the font chain of src/domain/pdf-text.ts is embedded
 * (DejaVu Sans, then a CJK and an emoji font when the brief has such characters), and the
 * customer's words are measured, wrapped and drawn through it. Long briefs flow over as many
 * A4 pages as they need, with page numbers.
 */

export interface BriefPdfInput {
  projectId: number;
  createdBy: string;
  name: string;
  audience: string;
  goal: string;
  length: string;
  brief: string;
  /** Shown in the footer. */
  generatedAt?: Date;
}

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const BODY_SIZE = 11;
const LINE = BODY_SIZE * 1.45;
const LABEL_WIDTH = 110;

/** Replaces characters the font cannot draw (control characters) and normalises line ends. */
function clean(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, '    ')
      // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
  );
}

/** The PDF's bytes. */
export function buildBriefPdf(input: BriefPdfInput, fonts: PdfFontSet): Uint8Array {
  const doc = new jsPDF({ unit: 'pt', format: 'a4', compress: true });
  embedPdfFonts(doc, fonts);
  const writer = pdfText(doc, fonts, jsPDF);
  doc.setProperties({ title: `Brief — ${input.name}`, subject: 'Project brief', creator: 'Cutdesk' });

  const bottom = PAGE.height - MARGIN;
  const textWidth = PAGE.width - 2 * MARGIN;
  let y = MARGIN;
  const ensure = (height: number) => {
    if (y + height > bottom) {
      doc.addPage();
      y = MARGIN;
    }
  };

  doc.setFont(PDF_FONT_FAMILY, 'bold');
  doc.setFontSize(20);
  doc.setTextColor('#464A4F');
  for (const line of writer.wrap(clean(input.name), textWidth)) {
    ensure(26);
    writer.draw(line, MARGIN, y + 20);
    y += 26;
  }
  doc.setFont(PDF_FONT_FAMILY, 'normal');
  doc.setFontSize(10);
  doc.setTextColor('#6b7278');
  doc.text(`Project brief · project ${input.projectId}`, MARGIN, y + 12);
  y += 30;

  const rows: [string, string][] = [
    ['Created by', input.createdBy],
    ['Name', input.name],
    ['Audience', input.audience],
    ['Goal', input.goal],
    ['Length', input.length],
  ];
  doc.setFontSize(BODY_SIZE);
  for (const [label, value] of rows) {
    const lines = writer.wrap(clean(value || '—'), textWidth - LABEL_WIDTH);
    lines.forEach((line, index) => {
      ensure(LINE);
      if (index === 0) {
        doc.setFont(PDF_FONT_FAMILY, 'bold');
        doc.setTextColor('#464A4F');
        doc.text(label, MARGIN, y + BODY_SIZE);
      }
      doc.setFont(PDF_FONT_FAMILY, 'normal');
      doc.setTextColor('#1f2226');
      writer.draw(line, MARGIN + LABEL_WIDTH, y + BODY_SIZE);
      y += LINE;
    });
    y += 4;
  }

  y += 10;
  ensure(LINE * 2);
  doc.setFont(PDF_FONT_FAMILY, 'bold');
  doc.setFontSize(13);
  doc.setTextColor('#464A4F');
  doc.text('Brief', MARGIN, y + 13);
  y += 24;
  doc.setFont(PDF_FONT_FAMILY, 'normal');
  doc.setFontSize(BODY_SIZE);
  doc.setTextColor('#1f2226');
  for (const paragraph of clean(input.brief || '—').split('\n')) {
    const lines = paragraph.trim() === '' ? [''] : writer.wrap(paragraph, textWidth);
    for (const line of lines) {
      ensure(LINE);
      writer.draw(line, MARGIN, y + BODY_SIZE);
      y += LINE;
    }
  }

  const pages = doc.getNumberOfPages();
  const stamp = (input.generatedAt ?? new Date()).toISOString().slice(0, 10);
  for (let page = 1; page <= pages; page += 1) {
    doc.setPage(page);
    doc.setFont(PDF_FONT_FAMILY, 'normal');
    doc.setFontSize(8.5);
    doc.setTextColor('#8a9197');
    doc.text(`Cutdesk · ${stamp}`, MARGIN, PAGE.height - 28);
    doc.text(`Page ${page} of ${pages}`, PAGE.width - MARGIN, PAGE.height - 28, { align: 'right' });
  }
  return new Uint8Array(doc.output('arraybuffer'));
}
