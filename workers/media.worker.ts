import * as Comlink from 'comlink';
import { PROGRESS_EVERY_MS } from '@/domain/progress.ts';
import { buildBriefPdf, type BriefPdfInput } from './brief-pdf.shared.ts';
import { loadPdfFonts } from './pdf-fonts.shared.ts';
import { buildInvoicePdf, type InvoicePdfInput } from './invoice-pdf.shared.ts';
import { zipChunks, zipStream, type ZipEntry, type ZipProgress } from './zip.shared.ts';

/**
 * The media worker (issue 6): project zips and the brief PDF are made here, off the UI
 * thread. A zip streams entry by entry from short-lived links straight into its target (a
 * file picked with the File System Access API, or the download service worker, to which this
 * worker hands the stream itself, issue 14): no chunk passes through the page, and memory stays
 * at a few chunks whatever the archive's size.
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

/** The name of the error a zip rejects with when its reader (the browser's download) cancelled it (the page checks it). */
const ZIP_CANCELLED = 'DownloadCancelled';

const jobs = new Map<string, AbortController>();

/** A link refused as expired or no longer valid (a stored S3 link answers 403; ours 410). */
const expired = (status: number) => status === 403 || status === 410;

function entriesOf(plan: ZipPlanEntry[], linkFor: LinkFor, signal: AbortSignal): ZipEntry[] {
  return plan.map((item): ZipEntry => {
    if (item.name.endsWith('/')) return { name: item.name, directory: true };
    return {
      name: item.name,
      ...(item.size !== undefined && { size: item.size }),
      // The link is asked for when the entry is reached, so it is fresh; one refused as expired
      // (a tab asleep, a clock far off) is asked for once more.
      open: async () => {
        let response = await fetch(await linkFor(item.ref ?? item.name), { signal });
        if (expired(response.status)) {
          await response.body?.cancel();
          response = await fetch(await linkFor(item.ref ?? item.name), { signal });
        }
        if (!response.ok || !response.body) throw new Error(`"${item.name}" could not be downloaded (HTTP ${response.status}).`);
        return response.body;
      },
    };
  });
}

/** Progress at most every `PROGRESS_EVERY_MS`, and always the last report. */
function throttled(onProgress: ProgressFn): ProgressFn {
  let last = 0;
  return (progress) => {
    const now = Date.now();
    if (now - last >= PROGRESS_EVERY_MS || progress.current === null) {
      last = now;
      onProgress(progress);
    }
  };
}

function cancelledError(): Error {
  const error = new Error('The download was cancelled.');
  error.name = ZIP_CANCELLED;
  return error;
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

  /**
   * The zip as a stream handed straight to the download service worker through `port` (issue
   * 14: the page only introduces the two; no chunk passes through it). Resolves when the whole
   * archive has been read by the download; rejects with the zip's failure (the download then
   * fails too, so no archive that looks valid is left), or with a `DownloadCancelled` error when
   * the download was cancelled.
   */
  async zipToStream(jobId: string, port: MessagePort, plan: ZipPlanEntry[], linkFor: LinkFor, onProgress: ProgressFn): Promise<void> {
    const controller = new AbortController();
    jobs.set(jobId, controller);
    const chunks = zipChunks(entriesOf(plan, linkFor, controller.signal), throttled(onProgress));
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    const finished = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const stream = new ReadableStream<Uint8Array>(
      {
        async pull(stream) {
          try {
            const { done, value } = await chunks.next();
            if (done) {
              stream.close();
              settle.resolve();
            } else stream.enqueue(value);
          } catch (error) {
            stream.error(error);
            settle.reject(controller.signal.aborted ? controller.signal.reason : error);
          }
        },
        async cancel() {
          settle.reject(cancelledError());
          controller.abort(cancelledError());
          await chunks.return(undefined).catch(() => undefined);
        },
      },
      { highWaterMark: 1 },
    );
    // Our own cancel (the page's signal) fails the download.
    controller.signal.addEventListener('abort', () => settle.reject(controller.signal.reason), { once: true });
    try {
      port.postMessage({ type: 'stream', stream }, [stream as unknown as Transferable]);
      await finished;
    } finally {
      jobs.delete(jobId);
      port.close();
    }
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
