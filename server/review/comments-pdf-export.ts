import { textsOf } from '../../src/domain/pdf-text.ts';
import type { FrameRate } from '../../src/domain/timecode.ts';
import type { ProjectVersionRow } from '../db/schema.ts';
import { mediaTools } from '../media/ffmpeg.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import type { PdfThread } from './comments-pdf.ts';
import { frameThumbnails, storedVideoInput } from './frame-thumbnails.ts';

/**
 * GET projects/{id}/comments/export?format=pdf, after the service has checked who asks and loaded
 * the threads: the pictures of the commented frames from the version's video, then the document.
 * A video that is gone or unreadable costs the pictures, never the PDF.
 */
export async function commentsPdfFile(
  storage: ObjectStore,
  projectName: string,
  version: Pick<ProjectVersionRow, 'number' | 'videoPath' | 'width' | 'height'>,
  frameRate: { rate: FrameRate; known: boolean },
  threads: readonly PdfThread[],
): Promise<Buffer> {
  const { rate, known } = frameRate;
  const source = threads.length ? await storedVideoInput(storage, version.videoPath).catch(() => null) : null;
  const pictures = source
    ? await frameThumbnails(
        mediaTools(),
        source,
        threads.map((thread) => thread.frame),
        rate,
      )
    : new Map<number, Uint8Array>();
  // jsPDF and the fonts load on the first export, not with the server (issue 14, start-up).
  const [{ buildCommentsPdf }, { loadServerPdfFonts }] = await Promise.all([import('./comments-pdf.ts'), import('./pdf-fonts.ts')]);
  const input = {
    projectName,
    version: version.number,
    rate,
    rateKnown: known,
    width: version.width,
    height: version.height,
    threads,
    pictures,
    generatedAt: new Date(),
  };
  // The CJK and emoji fonts are read only when the project's name or the threads need them.
  const pdf = buildCommentsPdf(input, await loadServerPdfFonts(textsOf([projectName, threads])));
  return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
}
