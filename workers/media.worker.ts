import * as Comlink from 'comlink';
import { PROGRESS_EVERY_MS } from '@/domain/progress.ts';
import { buildBriefPdf, type BriefPdfInput } from './brief-pdf.ts';
import { loadPdfFonts } from './pdf-fonts.ts';
import { textsOf } from '@/domain/pdf-text.ts';
import { buildInvoicePdf, type InvoicePdfInput } from './invoice-pdf.ts';
import type { StreamProtocol } from '@/domain/media.ts';
import { sendArchive } from './zip-port.ts';
import { zipChunks, zipParts, type ZipEntry, type ZipProgress } from './zip.ts';
import type { ZipPlanEntry } from '@/domain/zip-plan.ts';

/**
 * The media worker (issue 6): project zips and the brief PDF are made here, off the UI
 * thread. A zip streams entry by entry from short-lived links straight into its target (a
 * file picked with the File System Access API, or the download service worker, to which this
 * worker hands the stream itself, issue 14): no chunk passes through the page, and memory stays
 * at a few chunks whatever the archive's size.
 */

export type LinkFor = (ref: string) => Promise<string>;
export type ProgressFn = (progress: ZipProgress) => void;

const jobs = new Map<string, AbortController>();

/** A link refused as expired or no longer valid (a stored S3 link answers 403; ours 410). */
const expired = (status: number) => status === 403 || status === 410;

function entriesOf(plan: ZipPlanEntry[], linkFor: LinkFor, signal: AbortSignal): ZipEntry[] {
  return plan.map((item): ZipEntry => {
    if (item.name.endsWith('/')) return { name: item.name, directory: true };
    const ref = item.ref ?? item.name;
    return {
      name: item.name,
      ...(item.size !== undefined && { size: item.size }),
      ...(item.crc32 !== undefined && { crc32: item.crc32 }),
      link: () => linkFor(ref),
      // The link is asked for when the entry is reached, so it is fresh; one refused as expired
      // (a tab asleep, a clock far off) is asked for once more.
      open: async () => {
        let response = await fetch(await linkFor(ref), { signal });
        if (expired(response.status)) {
          await response.body?.cancel();
          response = await fetch(await linkFor(ref), { signal });
        }
        if (!response.ok || !response.body) throw new Error(`"${item.name}" could not be downloaded (HTTP ${response.status}).`);
        return response.body;
      },
    };
  });
}

/** Writes of a picked file in flight at once. */
const WRITES_AHEAD = 3;

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

const api = {
  /** Writes the zip into a file the user picked; the file is complete only if everything was written. */
  async zipToFile(jobId: string, handle: FileSystemFileHandle, plan: ZipPlanEntry[], linkFor: LinkFor, onProgress: ProgressFn): Promise<void> {
    const controller = new AbortController();
    jobs.set(jobId, controller);
    try {
      const writable = (await handle.createWritable()) as unknown as WritableStream<Uint8Array>;
      const writer = writable.getWriter();
      // A chunk is done with once its write has resolved (the file's writer has copied it): with
      // at most WRITES_AHEAD - 1 writes unresolved when the next chunk is asked for, the zip
      // reads every entry into a few buffers (bounded memory, no garbage per MiB), and the
      // next chunk is read while the last ones are written.
      const writing: Promise<void>[] = [];
      try {
        for await (const chunk of zipChunks(entriesOf(plan, linkFor, controller.signal), throttled(onProgress), { heldChunks: WRITES_AHEAD - 1 })) {
          controller.signal.throwIfAborted();
          const written = writer.write(chunk);
          written.catch(() => undefined);
          writing.push(written);
          if (writing.length >= WRITES_AHEAD) await writing.shift();
        }
        await Promise.all(writing);
        await writer.close();
      } catch (error) {
        // Failed or cancelled: nothing of it is kept, the picked file stays as it was.
        await writer.abort(error).catch(() => undefined);
        throw controller.signal.aborted ? controller.signal.reason : error;
      }
    } finally {
      jobs.delete(jobId);
    }
  },

  /**
   * The zip handed straight to the download service worker through `port` (issue 14: the page
   * only introduces the two; no chunk passes through it). With `chunks` the service worker asks
   * for chunks and each is copied as it is posted, so every entry is read into the same buffer;
   * with `entries` the service worker also fetches the entries whose CRC-32 is known, so their
   * bytes never reach this worker; with `stream` (an older service worker) the archive goes as
   * one transferred stream. Resolves when the whole archive has been taken by the download;
   * rejects with the zip's failure (the download then fails too, so no archive that looks valid
   * is left), or with a `DownloadCancelled` error when the download was cancelled.
   */
  async zipToStream(jobId: string, port: MessagePort, protocol: StreamProtocol, plan: ZipPlanEntry[], linkFor: LinkFor, onProgress: ProgressFn): Promise<void> {
    const controller = new AbortController();
    jobs.set(jobId, controller);
    try {
      // Progress: the bytes the zip read, and those of the entries the service worker fetched.
      const report = throttled(onProgress);
      let zipped: ZipProgress = { entries: 0, bytes: 0, written: 0, current: null };
      let fetched = 0;
      const progress = () => report({ ...zipped, bytes: zipped.bytes + fetched });
      const onZip = (next: ZipProgress) => {
        zipped = next;
        progress();
      };
      const onFetched = (bytes: number) => {
        fetched = bytes;
        progress();
      };
      // The chunk messages are copies: the zip may read every entry into one buffer.
      const parts = zipParts(
        entriesOf(plan, linkFor, controller.signal),
        onZip,
        protocol === 'stream' ? {} : { heldChunks: 0, passthrough: protocol === 'entries' },
      );
      await sendArchive(port, protocol, parts, controller, onFetched);
    } finally {
      jobs.delete(jobId);
    }
  },

  cancel(jobId: string): void {
    jobs.get(jobId)?.abort(new Error('The download was cancelled.'));
    jobs.delete(jobId);
  },

  async briefPdf(input: BriefPdfInput): Promise<Uint8Array> {
    const pdf = buildBriefPdf(input, await loadPdfFonts(textsOf(input)));
    return Comlink.transfer(pdf, [pdf.buffer]);
  },

  /** A subscription invoice (issue 11), with the brief's font chain (the CJK and emoji fonts fetched only when its text needs them). */
  async invoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
    const pdf = buildInvoicePdf(input, await loadPdfFonts(textsOf(input)));
    return Comlink.transfer(pdf, [pdf.buffer]);
  },
};

export type MediaWorkerApi = typeof api;

Comlink.expose(api);
