/**
 * The service worker of the upload worker's scope (`/assets/upload.worker…`, registered by
 * src/app/pwa.ts). It has no fetch handler on purpose. A shared worker is controlled by the
 * registration whose scope matches its script best, and under the app's service worker every
 * request of the upload worker — each 20 MiB part — was a fetch event that service worker let
 * pass: its process kept awake for the whole upload, and the part's body piped through the
 * page's renderer (Chromium 156 does not apply static routes to a worker's requests). Under
 * this one, Chromium sends them straight to the network. The upload worker's own script then
 * comes from the HTTP cache (built files are immutable) or the network; where neither has it,
 * the page unregisters this scope and starts the worker again through the app's service worker
 * and its precache (src/shared/uploads/worker-endpoint.ts).
 */
self.addEventListener('install', () => self.skipWaiting());
