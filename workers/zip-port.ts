import type { StreamProtocol } from '@/domain/media.ts';
import type { KnownEntry, ZipPassthrough } from './zip.ts';

/**
 * A streamed zip's way from the media worker to the download service worker
 * (public/zip-download/sw.js), on the MessagePort the page introduced them with (issue 14: no
 * chunk passes through the page).
 */

/** The name of the error a zip rejects with when its reader (the browser's download) cancelled it (the page checks it). */
const ZIP_CANCELLED = 'DownloadCancelled';

function cancelledError(): Error {
  const error = new Error('The download was cancelled.');
  error.name = ZIP_CANCELLED;
  return error;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Sends the archive's `chunks` on `port`. With `chunks` the service worker asks for chunks
 * (`pull`, several ahead) and each is copied as it is posted, so `chunks` may read every entry
 * into the same buffer; with `entries` (issue 14) it also takes an entry of known size and CRC-32
 * as an `entry` message, fetches its bytes itself from a link it asks for (`link`, answered fresh
 * each time), says how many such bytes it has read (`read`, reported to `onFetched`) and when it
 * has the whole entry (`fetched`: only then is the rest of the archive read), and `done` after
 * the end; with
 * `stream` (a service worker from before) the archive goes as one transferred stream. Resolves
 * when the download has taken the whole archive; rejects with the zip's failure (the download
 * then fails too, so no archive that looks valid is left), with the service worker's when an
 * entry it fetched failed, with `controller`'s reason when it aborts (the download fails), or
 * with a `DownloadCancelled` error when the download was cancelled in the browser (`controller`
 * then aborts: the zip's reads stop).
 */
export async function sendArchive(
  port: MessagePort,
  protocol: StreamProtocol,
  chunks: AsyncGenerator<Uint8Array | ZipPassthrough>,
  controller: AbortController,
  onFetched?: (bytes: number) => void,
): Promise<void> {
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const finished = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  /** The next part, or null at the end; on failure the zip's error (or the abort's reason). */
  const next = async (): Promise<Uint8Array | ZipPassthrough | null> => {
    try {
      const { done, value } = await chunks.next();
      return done ? null : value;
    } catch (error) {
      throw controller.signal.aborted ? controller.signal.reason : error;
    }
  };
  const cancelled = async () => {
    settle.reject(cancelledError());
    controller.abort(cancelledError());
    await chunks.return(undefined).catch(() => undefined);
  };
  try {
    if (protocol === 'chunks' || protocol === 'entries') {
      /** Set once the archive failed or was cancelled: a later pull hears it again, never an end. */
      let failure: { message: string } | null = null;
      const fail = (error: unknown) => {
        failure ??= { message: messageOf(error) };
        port.postMessage({ type: 'error', message: failure.message });
        settle.reject(error);
        // An entry being fetched is not waited for any more.
        fetching?.fetched();
      };
      /**
       * Pulls asked for and not answered yet. The service worker may ask for several ahead
       * (`ahead` below), so the next chunks are read and checked while the download manager
       * writes the last; they are still made one after the other, each posted (copied) before
       * its buffer is read into again.
       */
      let asked = 0;
      let making = false;
      /** The end was posted: later pulls get nothing, and with `entries` the service worker's `done` settles. */
      let ended = false;
      /** The entry the service worker fetches now, by the id it asks for its link with. */
      let fetching: { id: number; entry: KnownEntry; fetched: () => void } | null = null;
      let entryIds = 0;
      const make = async () => {
        if (making) return;
        making = true;
        try {
          while (asked > 0 && !failure && !ended) {
            const part = await next();
            // Said to the service worker before this settles (and the port closes).
            if (failure) return;
            asked -= 1;
            if (part && 'passthrough' in part) {
              const id = entryIds++;
              // Nothing after it is read until the service worker has it all: the next entry's
              // download, opened now, would wait unread (and time out) for as long as this one takes.
              await new Promise<void>((fetched) => {
                fetching = { id, entry: part.passthrough, fetched };
                port.postMessage({ type: 'entry', id, size: part.passthrough.size, name: part.passthrough.name });
              });
              fetching = null;
              continue;
            }
            port.postMessage(part ? { type: 'chunk', chunk: part } : { type: 'end' });
            if (!part) {
              ended = true;
              // With `entries` the service worker may still be fetching an entry (and ask for
              // its link): done once it says so.
              if (protocol !== 'entries') settle.resolve();
              return;
            }
          }
        } catch (error) {
          fail(error);
        } finally {
          making = false;
        }
      };
      /** The link of the entry the service worker is about to fetch, fresh (links are short-lived). */
      const answerLink = async (id: unknown) => {
        try {
          if (!fetching || fetching.id !== id) throw new Error('The download asked for a file the archive does not have.');
          port.postMessage({ type: 'link', id, url: await fetching.entry.link() });
        } catch (error) {
          fail(error);
        }
      };
      port.onmessage = (event: MessageEvent<{ type?: string; id?: unknown; bytes?: unknown; message?: unknown } | null>) => {
        const data = event.data;
        if (data?.type === 'cancel') void cancelled();
        else if (data?.type === 'link') void answerLink(data.id);
        else if (data?.type === 'read' && typeof data.bytes === 'number') onFetched?.(data.bytes);
        else if (data?.type === 'fetched' && fetching && fetching.id === data.id) fetching.fetched();
        else if (data?.type === 'done' && protocol === 'entries' && ended) settle.resolve();
        // An entry the service worker fetched failed, and the download with it: the zip stops.
        else if (data?.type === 'failed') controller.abort(new Error(typeof data.message === 'string' ? data.message : 'The archive could not be made.'));
        else if (data?.type === 'pull') {
          if (failure) {
            port.postMessage({ type: 'error', message: failure.message });
            return;
          }
          if (ended) return;
          asked += 1;
          void make();
        }
      };
      controller.signal.addEventListener('abort', () => fail(controller.signal.reason), { once: true });
      // `ahead`: this worker takes several pulls at once (a service worker from before asks one at a time).
      port.postMessage({ type: 'chunks', ahead: true });
    } else {
      const stream = new ReadableStream<Uint8Array>(
        {
          async pull(stream) {
            try {
              // Only `entries` makes passthrough parts: here every part is bytes.
              const chunk = (await next()) as Uint8Array | null;
              if (chunk) stream.enqueue(chunk);
              else {
                stream.close();
                settle.resolve();
              }
            } catch (error) {
              stream.error(error);
              settle.reject(error);
            }
          },
          cancel: cancelled,
        },
        { highWaterMark: 1 },
      );
      controller.signal.addEventListener('abort', () => settle.reject(controller.signal.reason), { once: true });
      port.postMessage({ type: 'stream', stream }, [stream as unknown as Transferable]);
    }
    await finished;
  } finally {
    port.close();
  }
}
