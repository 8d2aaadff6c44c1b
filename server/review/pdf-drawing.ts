import type { jsPDF } from 'jspdf';
import { DRAWING_PALETTE, scaleShape, type Drawing, type Shape } from '../../src/domain/drawing.ts';
import { PDF_FONT_FAMILY, type PdfTextWriter } from '../../src/domain/pdf-text.ts';

/**
 * A reviewer's drawing over the frame's picture in the comments PDF, as vector strokes (sharp
 * when printed), shaped like the player's overlay (src/shared/review/review-overlay.tsx) at the
 * picture's size: round strokes, a filled arrowhead, text at its baseline.
 */

export interface PictureBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Stroke width and arrowhead length relative to the picture's width (the player's 3 px and 14 px on a ~640 px picture). */
const STROKE = 3 / 640;
const HEAD = 14 / 640;
const LABEL_SIZE = 8;

function drawShape(doc: jsPDF, writer: PdfTextWriter, shape: Shape, box: PictureBox): void {
  const s = scaleShape(shape, box.width, box.height);
  const colour = DRAWING_PALETTE[s.color];
  doc.setDrawColor(colour);
  doc.setFillColor(colour);
  const X = (x: number) => box.x + x;
  const Y = (y: number) => box.y + y;
  switch (s.kind) {
    case 'rectangle':
      doc.rect(X(s.x), Y(s.y), s.width, s.height, 'S');
      return;
    case 'freehand': {
      const [first, ...rest] = s.points;
      if (!first) return;
      // A tap is one point: a dot, as the player's round cap shows it.
      if (rest.length === 0) doc.circle(X(first.x), Y(first.y), doc.getLineWidth() / 2, 'F');
      else
        doc.lines(
          rest.map((p, i) => {
            const previous = s.points[i]!;
            return [p.x - previous.x, p.y - previous.y];
          }),
          X(first.x),
          Y(first.y),
          [1, 1],
          'S',
          false,
        );
      return;
    }
    case 'arrow': {
      const head = HEAD * box.width;
      const angle = Math.atan2(s.to.y - s.from.y, s.to.x - s.from.x);
      const wing = (side: number) =>
        [X(s.to.x - head * Math.cos(angle + side * (Math.PI / 7))), Y(s.to.y - head * Math.sin(angle + side * (Math.PI / 7)))] as const;
      doc.line(X(s.from.x), Y(s.from.y), X(s.to.x), Y(s.to.y));
      doc.triangle(X(s.to.x), Y(s.to.y), ...wing(-1), ...wing(1), 'F');
      return;
    }
    case 'text':
      doc.setFont(PDF_FONT_FAMILY, 'bold');
      doc.setFontSize(LABEL_SIZE);
      doc.setTextColor(colour);
      // A label is the reviewer's text like any other: drawn as text, never interpreted.
      writer.draw(s.text.replace(/\s+/g, ' '), X(s.at.x), Y(s.at.y));
      return;
  }
}

/** Draws `drawing` over the picture at `box`, clipped to it (a label may run past the frame's edge). */
export function drawDrawing(doc: jsPDF, writer: PdfTextWriter, drawing: Drawing, box: PictureBox): void {
  doc.saveGraphicsState();
  doc.rect(box.x, box.y, box.width, box.height, null);
  doc.clip();
  doc.discardPath();
  doc.setLineWidth(Math.max(0.75, STROKE * box.width));
  doc.setLineCap('round');
  doc.setLineJoin('round');
  for (const shape of drawing.shapes) drawShape(doc, writer, shape, box);
  doc.restoreGraphicsState();
}
