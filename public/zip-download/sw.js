/*
 * Streamed downloads (issue 6). A ReadableStream (the zip made by the media worker) is handed
 * to this service worker, and the page then opens /zip-download/<id>/<name> in a hidden frame;
 * this worker answers that navigation with the stream as an attachment, so the browser's
 * download manager writes it to disk as it arrives: no Blob, memory bounded by the stream's
 * queue. Issue 14: the page registers the download with a MessagePort whose other end it gives
 * the media worker, and the worker posts the stream itself on it, so the archive's chunks go
 * from the worker to here without passing through the page. (A stream sent with the
 * registration itself is still taken.) Its scope is /zip-download/ only; the app's own service
 * worker is not involved.
 */
const pending = new Map();
/** How long a registered download waits for its frame, and the frame for its stream. */
const WAIT_MS = 60_000;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

function streamFrom(port) {
  return new Promise((resolve) => {
    port.onmessage = (event) => {
      if (event.data && event.data.type === 'stream' && event.data.stream) {
        resolve(event.data.stream);
        port.close();
      }
    };
  });
}

self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type === 'register' && data.id && (data.stream || data.port)) {
    const stream = data.stream ? Promise.resolve(data.stream) : streamFrom(data.port);
    pending.set(data.id, { stream, name: data.name });
    // Never fetched (the page went away): do not hold the stream forever.
    setTimeout(() => pending.delete(data.id), WAIT_MS);
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
  const late = new Promise((resolve) => setTimeout(() => resolve(null), WAIT_MS));
  event.respondWith(
    Promise.race([entry.stream, late]).then((stream) =>
      stream
        ? new Response(stream, { headers })
        : new Response('This download did not start.', { status: 404, headers: { 'Content-Type': 'text/plain' } }),
    ),
  );
});
