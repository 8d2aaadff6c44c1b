import { jsPDF } from 'jspdf';
import { validateDrawing } from '../../src/domain/drawing.ts';
import type { CommentAuthorRole } from '../../src/domain/share-links.ts';
import { frameToTimecode, isDropFrame, type FrameRate } from '../../src/domain/timecode.ts';
import { drawDrawing, type PictureBox } from './pdf-drawing.ts';
import { PDF_FONT_FAMILY, embedPdfFonts, pdfText, type PdfFontSet } from '../../src/domain/pdf-text.ts';

/**
 * A version's review comments as a printable A4 PDF (issue 13, the editors' export): per thread,
 * in frame order, a picture of the commented frame with the reviewer's drawing over it, the
 * timecode, who wrote it, whether it is resolved, the text, and the replies indented under it.
 * Pure: the caller loads the threads and the pictures (server/review/frame-thumbnails.ts).
 * Every text is the customers' own and goes onto the page as text, never interpreted.
 */

export interface PdfComment {
  readonly text: string;
  readonly author: { readonly name: string; readonly role: CommentAuthorRole };
}

export interface PdfThread extends PdfComment {
  readonly frame: number;
  readonly endFrame: number | null;
  readonly resolved: boolean;
  /** A deleted thread kept for its replies: no text, no drawing. */
  readonly deleted: boolean;
  /** As stored (checked again before it is drawn). */
  readonly drawing: unknown;
  readonly replies: readonly PdfComment[];
}

export interface CommentsPdfInput {
  readonly projectName: string;
  readonly version: number;
  readonly rate: FrameRate;
  /** False while ffprobe has not measured the video: the timecodes assume the rate. */
  readonly rateKnown: boolean;
  /** The video's picture size, for the shape of a missing picture's box. */
  readonly width: number | null;
  readonly height: number | null;
  readonly threads: readonly PdfThread[];
  /** JPEG per commented frame; a frame without one gets a grey "No picture" box. */
  readonly pictures: ReadonlyMap<number, Uint8Array>;
  readonly generatedAt: Date;
}

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const PICTURE_WIDTH = 160;
const GUTTER = 14;
const REPLY_INDENT = 14;
const INK = '#1f2226';
const MUTED = '#6b7278';
const RULE = '#dfe3e7';
const NO_PICTURE = '#d9dde1';
const OPEN = '#0a64c2';
const RESOLVED = '#1e8a3c';

const ROLE_NAME: Record<CommentAuthorRole, string> = {
  SUPERADMIN: 'Super admin',
  ADMIN: 'Admin',
  EDITOR: 'Editor',
  OWNER: 'Owner',
  USER: 'User',
  GUEST: 'Guest',
};

/** "v02": the version as file names and the exports' titles write it. */
const versionLabel = (version: number) => `v${String(version).padStart(2, '0')}`;

/** The document's title: "Brand anthem — v02 — review comments". */
export const commentsPdfTitle = (projectName: string, version: number) => `${oneLine(projectName)} — ${versionLabel(version)} — review comments`;

/** Text on one line: control characters and line breaks become spaces (names, the title). */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** The paragraphs of a comment: its own line breaks kept, tabs and other controls made spaces. */
function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?|\u2028|\u2029/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[\u0000-\u001f\u007f]/g, ' ').trimEnd()); // eslint-disable-line no-control-regex -- controls become spaces
}

/** "29.97 fps, drop-frame timecode", "25 fps". */
function rateLabel(rate: FrameRate, known: boolean): string {
  const fps = Number((rate.num / rate.den).toFixed(3));
  if (!known) return `frame rate not measured yet (timecodes assume ${fps} fps)`;
  return `${fps} fps${isDropFrame(rate) ? ', drop-frame timecode' : ''}`;
}

/** "2027-03-05 14:02 UTC": one reading for every office that prints it. */
const utcMinute = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The JPEG with its frame header (SOFn) moved up to right after the first segment (APP0). jsPDF
 * reads a JPEG's size from the first segment after that whose marker is 0xC0–0xC7, and counts
 * 0xC4 among them, which is a Huffman table (DHT), not a frame header: ffmpeg writes its tables
 * before the frame header, so jsPDF would read a table as the size and make a broken image.
 * Tables may come before or after the frame header (JPEG, B.2.4), so the picture is the same.
 * Anything not laid out as expected is returned unchanged (and jsPDF's size check decides).
 */
export function frameHeaderFirst(jpeg: Uint8Array): Uint8Array {
  const segments: Uint8Array[] = [];
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1]!;
    if (marker === 0xda) break; // Start of scan: the entropy-coded data follows, untouched.
    const end = at + 2 + ((jpeg[at + 2]! << 8) | jpeg[at + 3]!);
    if (end > jpeg.length) return jpeg;
    segments.push(jpeg.subarray(at, end));
    at = end;
  }
  const sof = segments.findIndex((segment) => segment[1]! >= 0xc0 && segment[1]! <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(segment[1]!));
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8 || jpeg[at + 1] !== 0xda || sof < 1) return jpeg;
  const [frameHeader] = segments.splice(sof, 1);
  segments.splice(1, 0, frameHeader!);
  const out = new Uint8Array(jpeg.length);
  out.set(jpeg.subarray(0, 2));
  let to = 2;
  for (const segment of segments) {
    out.set(segment, to);
    to += segment.length;
  }
  out.set(jpeg.subarray(at), to);
  return out;
}

/** The PDF's bytes. */
export function buildCommentsPdf(input: CommentsPdfInput, fonts: PdfFontSet): Uint8Array {
  const doc = new jsPDF({ unit: 'pt', format: 'a4', compress: true });
  embedPdfFonts(doc, fonts);
  // Every customer's text goes through the font chain (src/domain/pdf-text.ts): CJK, emoji and right-to-left included.
  const writer = pdfText(doc, fonts, jsPDF);
  const title = commentsPdfTitle(input.projectName, input.version);
  doc.setProperties({ title, subject: 'Review comments', creator: 'Cutdesk' });

  const right = PAGE.width - MARGIN;
  const bottom = PAGE.height - MARGIN - 16;
  const textX = MARGIN + PICTURE_WIDTH + GUTTER;
  let y = MARGIN;

  const font = (style: 'normal' | 'bold', size: number, colour: string) => {
    doc.setFont(PDF_FONT_FAMILY, style);
    doc.setFontSize(size);
    doc.setTextColor(colour);
  };
  const newPageIfNeeded = (height: number): boolean => {
    if (y + height <= bottom) return false;
    doc.addPage();
    y = MARGIN;
    return true;
  };
  /** Wrapped lines of `text` in the current font (set it first: the widths are its). */
  const wrap = (text: string, width: number): string[] => writer.wrap(text, width);
  /** Writes lines at `x`, one per `lineHeight`, continuing on a new page when the page is full. */
  const writeLines = (lines: readonly string[], x: number, lineHeight: number) => {
    for (const line of lines) {
      newPageIfNeeded(lineHeight);
      writer.draw(line, x, y + lineHeight * 0.75);
      y += lineHeight;
    }
  };

  // Title, then what the timecodes mean.
  font('bold', 16, INK);
  writeLines(wrap(title, right - MARGIN), MARGIN, 21);
  font('normal', 9, MUTED);
  const count = input.threads.length;
  writeLines(
    wrap(
      `Generated ${utcMinute(input.generatedAt)} · ${rateLabel(input.rate, input.rateKnown)} · ${count} ${count === 1 ? 'thread' : 'threads'}`,
      right - MARGIN,
    ),
    MARGIN,
    13,
  );
  y += 10;
  if (count === 0) {
    font('normal', 10.5, INK);
    writeLines(['No comments on this version.'], MARGIN, 15);
  }

  /** The picture's size as jsPDF reads it, or null when it cannot place it (then the grey box is drawn). */
  const readableImage = (picture: Uint8Array): { width: number; height: number } | null => {
    try {
      const { width, height } = doc.getImageProperties(picture);
      return width > 0 && height > 0 ? { width, height } : null;
    } catch {
      return null;
    }
  };
  const pictureHeight = (picture: Uint8Array | undefined): number => {
    const properties = picture ? readableImage(picture) : null;
    const ratio = properties ? properties.height / properties.width : input.width && input.height ? input.height / input.width : 9 / 16;
    // A tall phone video stays a reasonable size on the page.
    return PICTURE_WIDTH * Math.min(Math.max(ratio, 0.25), 1.5);
  };

  const drawPicture = (thread: PdfThread, picture: Uint8Array | undefined, box: PictureBox) => {
    let drawn = false;
    if (picture && readableImage(picture)) {
      doc.addImage(picture, 'JPEG', box.x, box.y, box.width, box.height, undefined, 'NONE');
      drawn = true;
    }
    if (!drawn) {
      doc.setFillColor(NO_PICTURE);
      doc.rect(box.x, box.y, box.width, box.height, 'F');
      font('normal', 8, MUTED);
      doc.text('No picture', box.x + box.width / 2, box.y + box.height / 2 + 3, { align: 'center' });
    }
    const drawing = thread.deleted || thread.drawing == null ? null : validateDrawing(thread.drawing);
    if (drawing?.ok) drawDrawing(doc, writer, drawing.drawing, box);
  };

  const byline = (comment: PdfComment) => `${oneLine(comment.author.name) || 'Unknown'} · ${ROLE_NAME[comment.author.role] ?? comment.author.role}`;

  const writeText = (text: string, x: number, width: number, lineHeight: number) => {
    for (const paragraph of paragraphs(text)) writeLines(paragraph ? wrap(paragraph, width) : [''], x, lineHeight);
  };

  for (const thread of [...input.threads].sort((a, b) => a.frame - b.frame)) {
    const stored = input.pictures.get(thread.frame);
    const picture = stored && frameHeaderFirst(stored);
    const height = pictureHeight(picture);
    // The picture and the thread's first lines stay together on one page.
    newPageIfNeeded(Math.max(height, 40) + 8);
    doc.setDrawColor(RULE);
    doc.setLineWidth(0.5);
    doc.line(MARGIN, y, right, y);
    y += 8;
    const top = y;
    const page = doc.getNumberOfPages();
    drawPicture(thread, picture, { x: MARGIN, y: top, width: PICTURE_WIDTH, height });

    const textWidth = right - textX;
    const timecode =
      frameToTimecode(thread.frame, input.rate) +
      (thread.endFrame != null && thread.endFrame > thread.frame ? ` – ${frameToTimecode(thread.endFrame, input.rate)}` : '');
    font('bold', 11, INK);
    doc.text(timecode, textX, y + 10);
    font('bold', 9, thread.resolved ? RESOLVED : OPEN);
    doc.text(thread.resolved ? 'Resolved' : 'Open', right, y + 10, { align: 'right' });
    y += 15;
    font('normal', 9, MUTED);
    writeLines(wrap(thread.deleted ? 'Comment deleted' : byline(thread), textWidth), textX, 12);
    y += 3;
    font('normal', 10, INK);
    if (thread.deleted) {
      font('normal', 9.5, MUTED);
      writeLines(wrap('The comment was deleted; the replies to it remain.', textWidth), textX, 13);
    } else writeText(thread.text, textX, textWidth, 14);

    for (const reply of thread.replies) {
      y += 5;
      font('bold', 9, MUTED);
      writeLines(wrap(`↳ ${byline(reply)}`, textWidth - REPLY_INDENT), textX + REPLY_INDENT, 12);
      font('normal', 9.5, INK);
      writeText(reply.text, textX + REPLY_INDENT, textWidth - REPLY_INDENT, 13);
    }
    // The next thread starts below the picture when the text was shorter than it.
    if (doc.getNumberOfPages() === page) y = Math.max(y, top + height);
    y += 12;
  }

  // Every page names the document and its place in it, so loose printed pages find their order.
  const pages = doc.getNumberOfPages();
  for (let i = 1; i <= pages; i++) {
    doc.setPage(i);
    font('normal', 8, MUTED);
    const [first = '', ...more] = wrap(title, right - MARGIN - 80);
    writer.draw(more.length ? `${first}…` : first, MARGIN, PAGE.height - MARGIN / 2);
    doc.text(`Page ${i} of ${pages}`, right, PAGE.height - MARGIN / 2, { align: 'right' });
  }
  return new Uint8Array(doc.output('arraybuffer'));
}
