import { Workbox } from 'workbox-window';
import { UPLOAD_WORKER_SCOPE } from '@/shared/uploads/worker-endpoint.ts';

/**
 * Registers the service worker (production builds only). A new version waits until the user
 * agrees: workbox-window's `waiting` shows the update banner (update-banner.tsx), and only its
 * Reload button activates the new worker (`messageSkipWaiting`) and reloads once it controls
 * the page. Nothing here reloads by itself, so an upload or a zip in progress is never cut.
 */

/** How often an app left open (uploads can take hours) asks the server for a new version. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;
/** If the new worker never takes control (another tab holds it back), reload anyway: the user asked. */
const CONTROLLING_TIMEOUT_MS = 5_000;

let workbox: Workbox | null = null;
let updateWaiting = false;
const listeners = new Set<() => void>();

function setWaiting(waiting: boolean): void {
  updateWaiting = waiting;
  for (const listener of listeners) listener();
}

export function subscribeUpdate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once a new version is installed and waits for the user's Reload. */
export function isUpdateWaiting(): boolean {
  return updateWaiting;
}

/** The user chose Reload: the waiting worker takes over, then the page reloads into it. */
export function applyUpdate(): void {
  const reload = () => window.location.reload();
  if (!workbox) return reload();
  workbox.addEventListener('controlling', reload);
  setTimeout(reload, CONTROLLING_TIMEOUT_MS);
  workbox.messageSkipWaiting();
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker
    .register('/upload-worker-sw.js', { scope: UPLOAD_WORKER_SCOPE })
    .catch((error: unknown) => console.error('upload worker scope registration failed', error));
  workbox = new Workbox('/sw.js');
  // Also fired at start when a new version was already waiting from an earlier visit.
  workbox.addEventListener('waiting', () => setWaiting(true));
  workbox
    .register()
    .then((registration) => {
      if (registration) setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
    })
    .catch((error: unknown) => console.error('service worker registration failed', error));
}
