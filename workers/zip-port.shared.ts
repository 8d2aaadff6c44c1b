import type { StreamProtocol } from '@/domain/media.ts';

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
 * into the same buffer; with `stream` (a service worker from before) the archive goes as one
 * transferred stream. Resolves when the download has taken the whole archive; rejects with the zip's failure
 * (the download then fails too, so no archive that looks valid is left), with `controller`'s
 * reason when it aborts (the download fails), or with a `DownloadCancelled` error when the
 * download was cancelled in the browser (`controller` then aborts: the zip's reads stop).
 */
export async function sendArchive(port: MessagePort, protocol: StreamProtocol, chunks: AsyncGenerator<Uint8Array>, controller: AbortController): Promise<void> {
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const finished = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  /** The next chunk, or null at the end; on failure the zip's error (or the abort's reason). */
  const next = async (): Promise<Uint8Array | null> => {
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
    if (protocol === 'chunks') {
      /** Set once the archive failed or was cancelled: a later pull hears it again, never an end. */
      let failure: { message: string } | null = null;
      const fail = (error: unknown) => {
        failure ??= { message: messageOf(error) };
        port.postMessage({ type: 'error', message: failure.message });
        settle.reject(error);
      };
      /**
       * Pulls asked for and not answered yet. The service worker may ask for several ahead
       * (`ahead` below), so the next chunks are read and checked while the download manager
       * writes the last; they are still made one after the other, each posted (copied) before
       * its buffer is read into again.
       */
      let asked = 0;
      let making = false;
      const make = async () => {
        if (making) return;
        making = true;
        try {
          while (asked > 0 && !failure) {
            const chunk = await next();
            // Said to the service worker before this settles (and the port closes).
            if (failure) return;
            asked -= 1;
            port.postMessage(chunk ? { type: 'chunk', chunk } : { type: 'end' });
            if (!chunk) {
              settle.resolve();
              return;
            }
          }
        } catch (error) {
          fail(error);
        } finally {
          making = false;
        }
      };
      port.onmessage = (event: MessageEvent<{ type?: string } | null>) => {
        if (event.data?.type === 'cancel') void cancelled();
        else if (event.data?.type === 'pull') {
          if (failure) {
            port.postMessage({ type: 'error', message: failure.message });
            return;
          }
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
              const chunk = await next();
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
