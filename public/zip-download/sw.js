/*
 * Streamed downloads (issue 6). A ReadableStream (the zip made by the media worker) is handed
 * to this service worker, and the page then opens /zip-download/<id>/<name> in a hidden frame;
 * this worker answers that navigation with the stream as an attachment, so the browser's
 * download manager writes it to disk as it arrives: no Blob, memory bounded by the stream's
 * queue. Issue 14: the page registers the download with a MessagePort whose other end it gives
 * the media worker, and the worker sends the archive on it as this worker asks (`pulledStream`),
 * so the archive goes from the worker to here without passing through the page, and the entries
 * whose CRC-32 the server knows are fetched here, without passing through the worker either.
 * (A stream posted whole on the port, or sent with the registration, is still taken.) Its scope
 * is /zip-download/ only; the app's own service worker is not involved.
 */
const pending = new Map();
/** How long a registered download waits for its frame, and the frame for its stream. */
const WAIT_MS = 60_000;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** The download's queue, in messages asked for ahead of the download manager (a chunk is at most 1 MiB). */
const CHUNKS_AHEAD = 4;
/** How often this worker tells the media worker how much of the entries it fetches it has read. */
const READ_EVERY_MS = 250;

/**
 * The archive as messages from the media worker: one `pull` asks for one message, a `chunk` of
 * the archive's bytes (copied as it is posted, so the media worker reads every entry into the
 * same buffer; issue 14: a stream handed over whole left one new 1 MiB buffer per MiB in the
 * worker's heap, collected late), an `entry` or the `end`. An `entry` is a file of known size
 * and CRC-32 (the server computed it) whose bytes this worker fetches itself, from a link it asks
 * the media worker for when it reaches the entry (`link`, so the link is fresh; one refused as
 * expired is asked for once more): those bytes never pass through the media worker, which no
 * longer reads, checks and posts every byte of the archive, and which is told when the entry is
 * all here (`fetched`) before it reads on. With `ahead` (a worker that takes several pulls at
 * once) the messages asked for, those not yet used and the chunks queued stay within
 * CHUNKS_AHEAD, so the worker makes the next while the download manager writes the last; a
 * worker from before is asked one message at a time.
 */
function pulledStream(port, ahead) {
  /** Messages answered in turn and not used yet, in order. */
  const inbox = [];
  /** Pulls posted and not answered yet. */
  let asked = 0;
  /** Closed, failed or cancelled: messages asked for before that are dropped as they come. */
  let over = false;
  let stream = null;
  /** Wakes the stream's pull waiting for a message (or for the end). */
  let wake = null;
  const links = new Map();
  const fetches = new AbortController();
  /** The entry being fetched: its body's reader and the bytes still owed. */
  let entry = null;
  let fetched = 0;
  let reportedAt = 0;

  const settleWaits = () => {
    if (wake) wake();
    wake = null;
    for (const waiting of links.values()) waiting(null);
    links.clear();
  };
  const stop = () => {
    over = true;
    fetches.abort();
    settleWaits();
  };
  /** The media worker failed (or broke the protocol): the download fails at once, queued chunks and all. */
  const failFromWorker = (message) => {
    stop();
    // An archive cut short must never end as a finished download.
    stream.error(new Error(typeof message === 'string' ? message : 'The archive could not be made.'));
    port.close();
  };
  /** Messages asked for and not yet used stay within the room the stream's queue has left. */
  const askAhead = (controller) => {
    const wanted = ahead ? controller.desiredSize : 1;
    for (; !over && asked + inbox.length < wanted; asked += 1) port.postMessage({ type: 'pull' });
  };
  const reportRead = (force) => {
    const now = Date.now();
    if (!force && now - reportedAt < READ_EVERY_MS) return;
    reportedAt = now;
    port.postMessage({ type: 'read', bytes: fetched });
  };
  const askLink = (id) =>
    new Promise((resolve) => {
      links.set(id, resolve);
      port.postMessage({ type: 'link', id });
    });

  port.onmessage = (event) => {
    const data = event.data || {};
    if (over) return;
    if (data.type === 'link') {
      const waiting = links.get(data.id);
      links.delete(data.id);
      if (waiting) waiting(typeof data.url === 'string' ? data.url : null);
      return;
    }
    if (data.type !== 'chunk' && data.type !== 'end' && data.type !== 'error' && data.type !== 'entry') return;
    const inTurn = asked > 0 && data.type !== 'error' && (data.type !== 'chunk' || data.chunk instanceof Uint8Array);
    if (!inTurn) {
      failFromWorker(data.message);
      return;
    }
    asked -= 1;
    inbox.push(data);
    if (wake) wake();
    wake = null;
  };

  /** The response of an entry's link, asked for once more when refused as expired (403 or 410). */
  async function open(data) {
    if (typeof data.size !== 'number' || !(data.size >= 0)) throw new Error('The archive could not be made.');
    const name = typeof data.name === 'string' ? data.name : 'A file';
    for (let attempt = 0; ; attempt += 1) {
      const url = await askLink(data.id);
      if (over) return null;
      // Only a web address: nothing else is fetched, and never with the user's credentials.
      if (!url || !/^https?:\/\//i.test(url)) throw new Error(`"${name}" could not be downloaded.`);
      const response = await fetch(url, { signal: fetches.signal, credentials: 'omit', cache: 'no-store' });
      if ((response.status === 403 || response.status === 410) && attempt === 0) {
        await response.body?.cancel();
        continue;
      }
      if (!response.ok || !response.body) throw new Error(`"${name}" could not be downloaded (HTTP ${response.status}).`);
      return { id: data.id, reader: response.body.getReader(), left: data.size, name };
    }
  }

  /** Puts the archive's next bytes in the stream: from the entry being fetched, else from the next message. */
  async function next(controller) {
    for (;;) {
      if (over) return;
      if (entry) {
        const { done, value } = await entry.reader.read();
        if (over) return;
        if (!done) {
          entry.left -= value.byteLength;
          if (entry.left < 0) throw new Error(`"${entry.name}" is longer than the archive says.`);
          fetched += value.byteLength;
          reportRead(false);
          controller.enqueue(value);
          return;
        }
        if (entry.left !== 0) throw new Error(`"${entry.name}" was cut short.`);
        // The worker reads the rest of the archive only now.
        port.postMessage({ type: 'fetched', id: entry.id });
        entry = null;
        reportRead(true);
        continue;
      }
      if (inbox.length === 0) {
        askAhead(controller);
        await new Promise((resolve) => {
          wake = resolve;
        });
        continue;
      }
      const data = inbox.shift();
      if (data.type === 'chunk') {
        controller.enqueue(data.chunk);
        askAhead(controller);
        return;
      }
      if (data.type === 'end') {
        over = true;
        controller.close();
        // The worker closes the port once it has heard this.
        port.postMessage({ type: 'done' });
        return;
      }
      askAhead(controller);
      entry = await open(data);
    }
  }

  return new ReadableStream(
    {
      start(controller) {
        stream = controller;
      },
      async pull(controller) {
        try {
          await next(controller);
        } catch (error) {
          if (over) return;
          // An entry this worker fetched failed: the download fails, and the media worker stops.
          const message = error instanceof Error && error.message ? error.message : 'The archive could not be made.';
          stop();
          port.postMessage({ type: 'failed', message });
          controller.error(new Error(message));
        }
      },
      cancel() {
        // The download was cancelled in the browser: the worker stops making the archive (and
        // closes the port once it has: closing it here could drop the message).
        stop();
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
    // `chunks`: this worker takes the archive as chunk messages (a page may meet an older one);
    // `entries`: and fetches the entries of known CRC-32 itself.
    if (event.ports[0]) event.ports[0].postMessage({ ok: true, chunks: true, entries: true });
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
      stream ? new Response(stream, { headers }) : new Response('This download did not start.', { status: 404, headers: { 'Content-Type': 'text/plain' } }),
    ),
  );
});
