import * as Comlink from 'comlink';
import { buildBriefPdf, type BriefPdfInput } from './brief-pdf.shared.ts';
import { loadPdfFonts } from './pdf-fonts.shared.ts';
import { buildInvoicePdf, type InvoicePdfInput } from './invoice-pdf.shared.ts';
import { zipStream, type ZipEntry, type ZipProgress } from './zip.shared.ts';

/**
 * The media worker (issue 6): project zips and the brief PDF are made here, off the UI
 * thread. A zip streams entry by entry from short-lived links straight into its target (a
 * file picked with the File System Access API, or a stream handed to the download service
 * worker): memory stays at a few chunks whatever the archive's size.
 */

export interface ZipPlanEntry {
  /** Path in the archive; folders end with `/`. */
  name: string;
  size?: number;
  /** Opaque reference the page turns into a fresh download link when the entry is reached. */
  ref?: string;
}

export type LinkFor = (ref: string) => Promise<string>;
export type ProgressFn = (progress: ZipProgress) => void;

const jobs = new Map<string, AbortController>();

function entriesOf(plan: ZipPlanEntry[], linkFor: LinkFor, signal: AbortSignal): ZipEntry[] {
  return plan.map((item): ZipEntry => {
    if (item.name.endsWith('/')) return { name: item.name, directory: true };
    return {
      name: item.name,
      ...(item.size !== undefined && { size: item.size }),
      open: async () => {
        const url = await linkFor(item.ref ?? item.name);
        const response = await fetch(url, { signal });
        if (!response.ok || !response.body) throw new Error(`"${item.name}" could not be downloaded (HTTP ${response.status}).`);
        return response.body;
      },
    };
  });
}

/** Progress at most every 150 ms, and always the last report. */
function throttled(onProgress: ProgressFn): ProgressFn {
  let last = 0;
  return (progress) => {
    const now = Date.now();
    if (now - last >= 150 || progress.current === null) {
      last = now;
      onProgress(progress);
    }
  };
}

const api = {
  /** Writes the zip into a file the user picked; the file is complete only if everything was written. */
  async zipToFile(jobId: string, handle: FileSystemFileHandle, plan: ZipPlanEntry[], linkFor: LinkFor, onProgress: ProgressFn): Promise<void> {
    const controller = new AbortController();
    jobs.set(jobId, controller);
    try {
      const writable = await handle.createWritable();
      await zipStream(entriesOf(plan, linkFor, controller.signal), throttled(onProgress)).pipeTo(writable as unknown as WritableStream<Uint8Array>, { signal: controller.signal });
    } finally {
      jobs.delete(jobId);
    }
  },

  /** The zip as a stream, transferred to the page (which hands it to the download service worker). */
  zipToStream(jobId: string, plan: ZipPlanEntry[], linkFor: LinkFor, onProgress: ProgressFn): ReadableStream<Uint8Array> {
    const controller = new AbortController();
    jobs.set(jobId, controller);
    const stream = zipStream(entriesOf(plan, linkFor, controller.signal), throttled(onProgress));
    const done = () => {
      jobs.delete(jobId);
    };
    const watched = stream.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: done }), { signal: controller.signal });
    return Comlink.transfer(watched, [watched as unknown as Transferable]);
  },

  cancel(jobId: string): void {
    jobs.get(jobId)?.abort(new Error('The download was cancelled.'));
    jobs.delete(jobId);
  },

  async briefPdf(input: BriefPdfInput): Promise<Uint8Array> {
    const pdf = buildBriefPdf(input, await loadPdfFonts());
    return Comlink.transfer(pdf, [pdf.buffer]);
  },

  /** A subscription invoice (issue 11), with the same embedded font as the brief. */
  async invoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
    const pdf = buildInvoicePdf(input, await loadPdfFonts());
    return Comlink.transfer(pdf, [pdf.buffer]);
  },
};

export type MediaWorkerApi = typeof api;

Comlink.expose(api);
