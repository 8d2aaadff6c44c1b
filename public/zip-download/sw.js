/*
 * Streamed downloads (issue 6). The page hands this service worker a ReadableStream (the zip
 * made by the media worker) and then opens /zip-download/<id>/<name> in a hidden frame; this
 * worker answers that navigation with the stream as an attachment, so the browser's download
 * manager writes it to disk as it arrives: no Blob, memory bounded by the stream's queue.
 * Its scope is /zip-download/ only; the app's own service worker is not involved.
 */
const pending = new Map();

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type === 'register' && data.stream && data.id) {
    pending.set(data.id, { stream: data.stream, name: data.name, size: data.size });
    // Never fetched (the page went away): do not hold the stream forever.
    setTimeout(() => pending.delete(data.id), 60_000);
    if (event.ports[0]) event.ports[0].postMessage({ ok: true });
  }
  // 'ping' messages keep this worker alive while a long download streams.
});

function disposition(name) {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const match = /^\/zip-download\/([A-Za-z0-9-]+)\/[^/]+$/.exec(url.pathname);
  if (!match) return;
  const entry = pending.get(match[1]);
  if (!entry) {
    event.respondWith(new Response('This download is no longer available.', { status: 404, headers: { 'Content-Type': 'text/plain' } }));
    return;
  }
  pending.delete(match[1]);
  const headers = {
    'Content-Type': 'application/zip',
    'Content-Disposition': disposition(entry.name),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  event.respondWith(new Response(entry.stream, { headers }));
});
