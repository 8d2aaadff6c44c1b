import type { Endpoint } from 'comlink';
import { UPLOAD_WORKER_LISTENING } from '../../../workers/upload/types.ts';

type Target = Pick<MessagePort, 'postMessage' | 'addEventListener'>;

/**
 * The scope of the upload worker's own service worker, without a fetch handler
 * (public/upload-worker-sw.js, registered by src/app/pwa.ts): the built worker is
 * `/assets/upload.worker-<hash>.js`, so its requests skip the app's service worker (issue 14).
 * e2e/app-shell.spec.ts checks that the built worker falls in it.
 */
export const UPLOAD_WORKER_SCOPE = '/assets/upload.worker';

export interface SharedWorkerStart {
  /** The shared upload worker, just created. */
  first: SharedWorker;
  /**
   * Another one with the same script under a name of its own for each try (1, 2, …). (Under a
   * name used before it could join the failed worker while Chromium tears it down, and hear
   * nothing ever.)
   */
  reopen: (retry: number) => SharedWorker;
  /**
   * Takes the upload worker out of its own service worker's scope (src/app/pwa.ts), so the next
   * one is loaded through the app's service worker and its precache; false when there was none.
   */
  leaveOwnScope: () => Promise<boolean>;
  /** Where the page learns which port it now talks to (for `pagehide`). */
  onPort: (port: MessagePort) => void;
  /** The pause before the second and later retries, times the retry's number (default 500 ms). */
  retryPauseMs?: number;
}

/** Tries after the first start fails, the first at once and the others after a pause. */
export const UPLOAD_WORKER_RETRIES = 3;

/**
 * The shared upload worker's port, tried again when it cannot start. Its script is loaded under
 * a service worker of its own without a fetch handler (so its parts skip the app's), that is
 * from the HTTP cache or the network, not from the app's precache: offline with that cache
 * cleared, or on a page of a version the server no longer has, it fails. Then its own scope is
 * left and the worker started again, through the app's service worker; when that fails too (a
 * loaded machine was seen to fail it once in several full e2e runs), it is tried again after a
 * pause, up to UPLOAD_WORKER_RETRIES times. Messages wait until a worker says it listens (its
 * first message on the port), so nothing is posted to one that never started, and the transfers
 * in them (comlink's callback ports) are still whole when they go.
 */
export function sharedWithRetry(start: SharedWorkerStart): Endpoint {
  const waiting: [unknown, Transferable[]][] = [];
  const listeners = new Set<EventListenerOrEventListenerObject>();
  let target: Target | null = null;
  const deliver = (event: Event) => {
    for (const listener of listeners) {
      if (typeof listener === 'function') listener(event);
      else listener.handleEvent(event);
    }
  };
  const attempt = (shared: SharedWorker, retry: number) => {
    const port = shared.port;
    start.onPort(port);
    const onListening = (event: MessageEvent) => {
      if (event.data !== UPLOAD_WORKER_LISTENING) return;
      done();
      target = port;
      port.addEventListener('message', deliver);
      for (const [message, transfer] of waiting.splice(0)) port.postMessage(message, transfer);
    };
    const onError = () => {
      done();
      port.close();
      if (retry === UPLOAD_WORKER_RETRIES) {
        console.error('the upload worker could not start');
        return;
      }
      if (retry > 0) {
        setTimeout(() => attempt(start.reopen(retry + 1), retry + 1), (start.retryPauseMs ?? 500) * retry);
        return;
      }
      // Without an own scope to leave, the failure is not the one a retry mends.
      void start
        .leaveOwnScope()
        .catch(() => false)
        .then((left) => {
          console.warn(`the upload worker could not start${left ? ': starting it again through the app’s service worker' : ''}`);
          if (left) attempt(start.reopen(1), 1);
        });
    };
    const done = () => {
      port.removeEventListener('message', onListening);
      shared.removeEventListener('error', onError);
    };
    port.addEventListener('message', onListening);
    shared.addEventListener('error', onError);
    port.start();
  };
  attempt(start.first, 0);
  return {
    postMessage: (message: unknown, transfer: Transferable[] = []) => {
      if (target) target.postMessage(message, transfer);
      else waiting.push([message, transfer]);
    },
    addEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => listeners.add(listener),
    removeEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => listeners.delete(listener),
  };
}
