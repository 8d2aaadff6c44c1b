import type { StreamProtocol } from '@/domain/media.ts';

/**
 * Where a large download goes, memory bounded either way:
 * - the File System Access save picker where the browser has it (Chromium): the worker writes
 *   the file directly;
 * - otherwise a streamed download: the stream is handed to a small service worker
 *   (/zip-download/sw.js) that answers a hidden frame's navigation with it as an attachment.
 */

interface SavePickerWindow {
  showSaveFilePicker?: (options: {
    suggestedName: string;
    types?: { description: string; accept: Record<string, string[]> }[];
  }) => Promise<FileSystemFileHandle>;
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
/** How long the download service may take to start before the user is told why it did not (issue 12). */
export const STREAM_START_TIMEOUT_MS = 8_000;

export const STREAM_MESSAGES = {
  unsupported: 'This browser cannot save large downloads made on this device. Use a recent Chrome, Edge or Firefox.',
  insecure: 'Downloads made on this device need a secure (https) address.',
  didNotStart:
    'The download could not start in this browser (its download service did not answer). Reload the page and try again, or use a recent Chrome, Edge or Firefox.',
} as const;

/**
 * Why this browser cannot take a streamed download, or null when it can: checked before any
 * work, so a browser without the save picker hears the reason at once instead of waiting.
 */
export function streamDownloadProblem(): string | null {
  if (!window.isSecureContext) return STREAM_MESSAGES.insecure;
  if (!('serviceWorker' in navigator) || typeof ReadableStream === 'undefined' || typeof TransformStream === 'undefined') return STREAM_MESSAGES.unsupported;
  try {
    // The stream is handed to the service worker: the browser must be able to transfer one.
    const probe = new ReadableStream();
    structuredClone(probe, { transfer: [probe as unknown as Transferable] });
  } catch {
    return STREAM_MESSAGES.unsupported;
  }
  return null;
}

/** `promise`, or a rejection with `message` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function downloadWorker(): Promise<ServiceWorker> {
  const problem = streamDownloadProblem();
  if (problem) throw new Error(problem);
  const registration = await within(navigator.serviceWorker.register(SW_URL, { scope: SW_SCOPE }), STREAM_START_TIMEOUT_MS, STREAM_MESSAGES.didNotStart);
  const worker = registration.active ?? registration.waiting ?? registration.installing;
  if (!worker) throw new Error(STREAM_MESSAGES.didNotStart);
  if (worker.state !== 'activated') {
    const activated = new Promise<void>((resolve, reject) => {
      const check = () => {
        if (worker.state === 'activated') resolve();
        else if (worker.state === 'redundant') reject(new Error(STREAM_MESSAGES.didNotStart));
      };
      worker.addEventListener('statechange', check);
      check();
    });
    await within(activated, STREAM_START_TIMEOUT_MS, STREAM_MESSAGES.didNotStart);
  }
  return worker;
}

/**
 * A streamed download of `name`: registers it with the download service worker, hands
 * `write` the MessagePort on which the archive's producer (the media worker) sends the archive
 * to that service worker itself (issue 14: no chunk passes through the page), and opens the
 * download. Resolves when `write` does (the download manager has read every byte), rejects
 * with its failure.
 */
export async function streamToDownload(name: string, write: (port: MessagePort, protocol: StreamProtocol) => Promise<void>): Promise<void> {
  const worker = await downloadWorker();
  const id = crypto.randomUUID();
  const data = new MessageChannel();
  const ack = new MessageChannel();
  const registered = new Promise<StreamProtocol>((resolve) => {
    ack.port1.onmessage = (event: MessageEvent<{ chunks?: boolean; entries?: boolean } | null>) =>
      resolve(event.data?.entries === true ? 'entries' : event.data?.chunks === true ? 'chunks' : 'stream');
  });
  worker.postMessage({ type: 'register', id, name, port: data.port1 }, [ack.port2, data.port1]);
  const protocol = await within(registered, STREAM_START_TIMEOUT_MS, STREAM_MESSAGES.didNotStart);
  ack.port1.close();
  const writing = write(data.port2, protocol);
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = `${SW_SCOPE}${id}/${encodeURIComponent(name)}`;
  document.body.append(frame);
  const keepAlive = setInterval(() => worker.postMessage({ type: 'ping' }), 10_000);
  try {
    await writing;
  } finally {
    clearInterval(keepAlive);
    setTimeout(() => frame.remove(), 60_000);
  }
}
