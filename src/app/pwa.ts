import { Workbox } from 'workbox-window';

/**
 * Registers the service worker (production builds only). A new version waits until the
 * user reloads, so an upload in progress is never cut by an automatic update.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/sw.js');
  workbox.addEventListener('waiting', () => {
    console.info('A new version of Cutdesk is ready; it starts on the next reload.');
  });
  workbox.register().catch((error: unknown) => console.error('service worker registration failed', error));
}
