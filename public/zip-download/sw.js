/*
 * Streamed downloads (issue 6). A ReadableStream (the zip made by the media worker) is handed
 * to this service worker, and the page then opens /zip-download/<id>/<name> in a hidden frame;
 * this worker answers that navigation with the stream as an attachment, so the browser's
 * download manager writes it to disk as it arrives: no Blob, memory bounded by the stream's
 * queue. Issue 14: the page registers the download with a MessagePort whose other end it gives
 * the media worker, and the worker sends the archive on it, chunk by chunk as this worker asks
 * (`pulledStream`), so the archive goes from the worker to here without passing through the
 * page. (A stream posted whole on the port, or sent with the registration, is still taken.) Its scope is /zip-download/ only; the app's own service
 * worker is not involved.
 */
const pending = new Map();
/** How long a registered download waits for its frame, and the frame for its stream. */
const WAIT_MS = 60_000;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** Chunks the download's stream keeps asked for ahead of the download manager (1 MiB each). */
const CHUNKS_AHEAD = 4;

/**
 * The archive as chunk messages: one `pull` asks for one chunk. A posted chunk is copied as it
 * is posted, so the media worker reads every entry into the same buffer (issue 14: a stream
 * handed over whole left one new 1 MiB buffer per MiB in the worker's heap, collected late).
 * With `ahead` (a worker that says it takes several pulls at once) the chunks asked for and
 * those queued together stay within CHUNKS_AHEAD, so the worker reads the next while the
 * download manager writes the last; a worker from before is asked one chunk at a time.
 */
function pulledStream(port, ahead) {
  let controller = null;
  let waiting = null;
  /** Pulls posted and not answered yet. */
  let asked = 0;
  /** Closed, failed or cancelled: chunks asked for before that are dropped as they come. */
  let over = false;
  const answered = () => {
    if (waiting) waiting();
    waiting = null;
  };
  port.onmessage = (event) => {
    const data = event.data || {};
    if (over || (data.type !== 'chunk' && data.type !== 'end' && data.type !== 'error')) return;
    const inTurn = asked > 0;
    if (inTurn) asked -= 1;
    if (data.type === 'chunk' && data.chunk instanceof Uint8Array && inTurn) {
      controller.enqueue(data.chunk);
    } else if (data.type === 'end' && inTurn) {
      over = true;
      controller.close();
      port.close();
    } else if (data.type === 'error' || data.type === 'end' || data.type === 'chunk') {
      // A failure (or anything out of turn) fails the download at once, queued chunks and
      // all: an archive cut short must never end as a finished download.
      over = true;
      controller.error(new Error(typeof data.message === 'string' ? data.message : 'The archive could not be made.'));
      port.close();
    }
    answered();
  };
  return new ReadableStream(
    {
      start(streamController) {
        controller = streamController;
      },
      pull(streamController) {
        const wanted = ahead ? streamController.desiredSize : 1;
        for (; asked < wanted; asked += 1) port.postMessage({ type: 'pull' });
        return new Promise((resolve) => {
          waiting = resolve;
        });
      },
      cancel() {
        // The download was cancelled in the browser: the worker stops making the archive (and
        // closes the port once it has: closing it here could drop the message).
        over = true;
        port.postMessage({ type: 'cancel' });
      },
    },
    new CountQueuingStrategy({ highWaterMark: CHUNKS_AHEAD }),
  );
}

function streamFrom(port) {
  return new Promise((resolve) => {
    port.onmessage = (event) => {
      const data = event.data || {};
      if (data.type === 'chunks') resolve(pulledStream(port, data.ahead === true));
      else if (data.type === 'stream' && data.stream) {
        // A page from before the chunk messages hands its stream over whole.
        resolve(data.stream);
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
    // `chunks`: this worker takes the archive as chunk messages (a page may meet an older one).
    if (event.ports[0]) event.ports[0].postMessage({ ok: true, chunks: true });
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
