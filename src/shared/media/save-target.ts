/**
 * Where a large download goes, memory bounded either way:
 * - the File System Access save picker where the browser has it (Chromium): the worker writes
 *   the file directly;
 * - otherwise a streamed download: the stream is handed to a small service worker
 *   (/zip-download/sw.js) that answers a hidden frame's navigation with it as an attachment.
 */

interface SavePickerWindow {
  showSaveFilePicker?: (options: { suggestedName: string; types?: { description: string; accept: Record<string, string[]> }[] }) => Promise<FileSystemFileHandle>;
}

export type SaveTarget = { kind: 'file'; handle: FileSystemFileHandle } | { kind: 'stream' };

export class DownloadCancelled extends Error {
  constructor() {
    super('The download was cancelled.');
  }
}

/** Asks where to save `name` (must run in the click's user activation). */
export async function chooseSaveTarget(name: string, mime = 'application/zip'): Promise<SaveTarget> {
  const picker = (window as unknown as SavePickerWindow).showSaveFilePicker;
  if (typeof picker === 'function') {
    try {
      const ext = name.slice(name.lastIndexOf('.'));
      const handle = await picker.call(window, { suggestedName: name, types: [{ description: 'Zip archive', accept: { [mime]: [ext] } }] });
      return { kind: 'file', handle };
    } catch (error) {
      if ((error as { name?: string }).name === 'AbortError') throw new DownloadCancelled();
      // A picker that cannot open (policy, iframe): fall back to the streamed download.
    }
  }
  return { kind: 'stream' };
}

const SW_URL = '/zip-download/sw.js';
const SW_SCOPE = '/zip-download/';

async function downloadWorker(): Promise<ServiceWorker> {
  if (!('serviceWorker' in navigator)) throw new Error('This browser cannot stream downloads. Use a recent Chrome, Edge or Firefox.');
  const registration = await navigator.serviceWorker.register(SW_URL, { scope: SW_SCOPE });
  const worker = registration.active ?? registration.waiting ?? registration.installing;
  if (!worker) throw new Error('The download service could not start.');
  if (worker.state !== 'activated') {
    await new Promise<void>((resolve) => {
      const check = () => worker.state === 'activated' && resolve();
      worker.addEventListener('statechange', check);
      check();
    });
  }
  return worker;
}

/**
 * Streams `stream` to the browser's downloads as `name`. Resolves when the stream has been
 * read to its end (the download manager has every byte), rejects if it failed.
 */
export async function streamToDownload(stream: ReadableStream<Uint8Array>, name: string): Promise<void> {
  const worker = await downloadWorker();
  const id = crypto.randomUUID();
  let finish!: () => void;
  let fail!: (error: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  // The end of the stream is seen here, before it goes to the service worker.
  const watched = stream.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: () => finish() }));
  const reading = watched.getReader();
  const relay = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reading.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        fail(error);
      }
    },
    cancel(reason) {
      void reading.cancel(reason);
      fail(reason instanceof Error ? reason : new DownloadCancelled());
    },
  }, { highWaterMark: 1 });
  const channel = new MessageChannel();
  const registered = new Promise<void>((resolve) => {
    channel.port1.onmessage = () => resolve();
  });
  worker.postMessage({ type: 'register', id, name, stream: relay }, [channel.port2, relay as unknown as Transferable]);
  await registered;
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = `${SW_SCOPE}${id}/${encodeURIComponent(name)}`;
  document.body.append(frame);
  const keepAlive = setInterval(() => worker.postMessage({ type: 'ping' }), 10_000);
  try {
    await finished;
  } finally {
    clearInterval(keepAlive);
    setTimeout(() => frame.remove(), 60_000);
  }
}
