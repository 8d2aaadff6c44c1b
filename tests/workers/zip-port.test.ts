import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInThisContext } from 'node:vm';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamProtocol } from '../../src/domain/media.ts';
import { sendArchive } from '../../workers/zip-port.ts';
import { zipChunks, zipParts, type ZipEntry } from '../../workers/zip.ts';
import { byteStream } from '../support/byte-stream.ts';

const MiB = 1024 ** 2;

/**
 * The download service worker (public/zip-download/sw.js) as it is served, run in this realm
 * with a stand-in for its global scope: its message and fetch handlers are called as the
 * browser would call them.
 */
function downloadServiceWorker() {
  const handlers: Record<string, (event: unknown) => void> = {};
  const scope = {
    addEventListener: (type: string, handler: (event: unknown) => void) => (handlers[type] = handler),
    skipWaiting: () => undefined,
    clients: { claim: async () => undefined },
  };
  runInThisContext(`(function (self) {\n${readFileSync('public/zip-download/sw.js', 'utf8')}\n})`)(scope);
  return {
    /** Registers a download as the page does; resolves with the service worker's acknowledgement and the port for the archive's producer. */
    async register(id: string, name: string): Promise<{ ack: { ok: boolean; chunks?: boolean; entries?: boolean }; port: MessagePort }> {
      const data = new MessageChannel();
      const ack = new MessageChannel();
      const acknowledged = new Promise<{ ok: boolean; chunks?: boolean; entries?: boolean }>(
        (resolve) => (ack.port1.onmessage = (event) => resolve(event.data)),
      );
      handlers.message!({ data: { type: 'register', id, name, port: data.port1 }, ports: [ack.port2] });
      const answer = await acknowledged;
      ack.port1.close();
      return { ack: answer, port: data.port2 };
    },
    /** The hidden frame's navigation: the download's response. */
    open(id: string, name: string): Promise<Response> {
      let answer: Promise<Response> | null = null;
      handlers.fetch!({
        request: { url: `https://cutdesk.test/zip-download/${id}/${encodeURIComponent(name)}` },
        respondWith: (response: Promise<Response>) => (answer = response),
      });
      return answer!;
    },
  };
}

/** What `promise` came to, with its rejection handled at once (it is looked at later). */
function outcome(promise: Promise<void>): Promise<unknown> {
  return promise.then(
    () => 'done',
    (error: unknown) => error,
  );
}

async function whole(entries: () => ZipEntry[]): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of zipChunks(entries())) parts.push(chunk);
  return Buffer.concat(parts);
}

describe('a streamed zip from the media worker to the download service worker', () => {
  const a = randomBytes(2 * MiB + 17);
  const b = randomBytes(3 * MiB + 5);
  const entries = (options: { failAt?: number } = {}): ZipEntry[] => [
    { name: 'interviews/', directory: true },
    { name: 'interviews/a.mov', size: a.length, lastModified: new Date(2026, 0, 1), open: () => byteStream(a) },
    { name: 'b_roll/b.mov', size: b.length, lastModified: new Date(2026, 0, 1), open: () => byteStream(b, options) },
  ];
  const dated = () => entries().map((entry) => ({ ...entry, lastModified: new Date(2026, 0, 1) }));

  for (const protocol of ['chunks', 'stream'] as StreamProtocol[]) {
    it(`arrives whole as the download's body (${protocol})`, async () => {
      const sw = downloadServiceWorker();
      const { ack, port } = await sw.register('one', 'project-7_raw_assets.zip');
      expect(ack).toEqual({ ok: true, chunks: true, entries: true });
      const controller = new AbortController();
      const sent = sendArchive(port, protocol, zipChunks(dated(), undefined, protocol === 'chunks' ? { heldChunks: 0 } : {}), controller);
      const response = await sw.open('one', 'project-7_raw_assets.zip');
      expect(response.headers.get('content-disposition')).toContain('project-7_raw_assets.zip');
      const bytes = Buffer.from(await response.arrayBuffer());
      await sent;
      expect(bytes.equals(await whole(dated))).toBe(true);
    });
  }

  it('fails the download when an entry fails mid-way, and never ends it as finished', async () => {
    const sw = downloadServiceWorker();
    const { port } = await sw.register('two', 'x.zip');
    const sent = outcome(sendArchive(port, 'chunks', zipChunks(entries({ failAt: MiB }), undefined, { heldChunks: 0 }), new AbortController()));
    const response = await sw.open('two', 'x.zip');
    await expect(response.arrayBuffer()).rejects.toThrow(/download failed/);
    expect(String(await sent)).toMatch(/download failed/);
  });

  it('stops reading the clips when the download is cancelled in the browser', async () => {
    const sw = downloadServiceWorker();
    const { port } = await sw.register('three', 'x.zip');
    let stopped = false;
    const long = randomBytes(16 * MiB);
    const controller = new AbortController();
    // As the media worker's entries do, the clip's download listens to the zip's signal (fetch's `signal`).
    const clips: ZipEntry[] = [
      {
        name: 'interviews/long.mov',
        size: long.length,
        open: () => {
          const clip = byteStream(long);
          controller.signal.addEventListener('abort', () => {
            stopped = true;
            void clip.cancel().catch(() => undefined);
          });
          return clip;
        },
      },
    ];
    const sent = outcome(sendArchive(port, 'chunks', zipChunks(clips, undefined, { heldChunks: 0 }), controller));
    const reader = (await sw.open('three', 'x.zip')).body!.getReader();
    // Cancelled in the middle of the clip.
    for (let read = 0; read < 2 * MiB;) read += (await reader.read()).value?.length ?? 0;
    await reader.cancel();
    expect(await sent).toMatchObject({ name: 'DownloadCancelled' });
    expect(controller.signal.aborted).toBe(true);
    expect(stopped).toBe(true);
  });

  it('fails the download when the page cancels the zip, even with chunks already queued', async () => {
    const sw = downloadServiceWorker();
    const { port } = await sw.register('four', 'x.zip');
    const controller = new AbortController();
    const sent = outcome(sendArchive(port, 'chunks', zipChunks(entries(), undefined, { heldChunks: 0 }), controller));
    const reader = (await sw.open('four', 'x.zip')).body!.getReader();
    await reader.read();
    controller.abort(new Error('The download was cancelled.'));
    expect(String(await sent)).toContain('The download was cancelled.');
    let failed: unknown = null;
    try {
      for (;;) if ((await reader.read()).done) break;
    } catch (error) {
      failed = error;
    }
    expect(String(failed)).toContain('cancelled');
  });

  /** A producer on the port that only counts the pulls it hears and answers when told. */
  async function countingProducer(sw: ReturnType<typeof downloadServiceWorker>, id: string, hello: Record<string, unknown>) {
    const { port } = await sw.register(id, 'x.zip');
    let pulls = 0;
    port.onmessage = (event: MessageEvent<{ type?: string }>) => {
      if (event.data?.type === 'pull') pulls += 1;
    };
    port.postMessage(hello);
    const response = await sw.open(id, 'x.zip');
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    await settle();
    return { port, response, pulls: () => pulls, settle };
  }

  it('asks a worker that takes pulls ahead for several chunks at once, never more than it queues', async () => {
    const sw = downloadServiceWorker();
    const producer = await countingProducer(sw, 'ahead', { type: 'chunks', ahead: true });
    // Four asked for before any answer: the worker reads the next while the last is written.
    expect(producer.pulls()).toBe(4);
    for (let i = 0; i < 4; i += 1) producer.port.postMessage({ type: 'chunk', chunk: new Uint8Array([i]) });
    await producer.settle();
    // Four queued and nobody reading: nothing more is asked for (memory stays at four chunks).
    expect(producer.pulls()).toBe(4);
    const reader = producer.response.body!.getReader();
    expect(Array.from((await reader.read()).value!)).toEqual([0]);
    producer.port.postMessage({ type: 'chunk', chunk: new Uint8Array([4]) });
    await producer.settle();
    expect(producer.pulls()).toBeGreaterThan(4);
    expect(producer.pulls()).toBeLessThanOrEqual(5);
    await reader.cancel();
  });

  it('asks a worker from before for one chunk at a time', async () => {
    const sw = downloadServiceWorker();
    const producer = await countingProducer(sw, 'before', { type: 'chunks' });
    expect(producer.pulls()).toBe(1);
    producer.port.postMessage({ type: 'chunk', chunk: new Uint8Array([1]) });
    await producer.settle();
    expect(producer.pulls()).toBe(2);
    await producer.response.body!.cancel();
  });

  it('fails the download on a chunk nobody asked for', async () => {
    const sw = downloadServiceWorker();
    const producer = await countingProducer(sw, 'unasked', { type: 'chunks', ahead: true });
    // Four asked for, five sent, nobody reading: the fifth is out of turn.
    for (let i = 0; i < 5; i += 1) producer.port.postMessage({ type: 'chunk', chunk: new Uint8Array([i]) });
    await producer.settle();
    await expect(producer.response.arrayBuffer()).rejects.toThrow(/could not be made/);
  });
});

describe('entries of known CRC-32 that the download service worker fetches itself (issue 14)', () => {
  const a = randomBytes(2 * MiB + 17);
  const b = randomBytes(3 * MiB + 5);
  /** Requests the store stand-in answered, by path. */
  const requests: string[] = [];
  /** What happened, in order, where the order matters. */
  const events: string[] = [];
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    // A real HTTP server as the store: /a and /b, one link that has expired, a cut body, a failure.
    let expiredOnce = true;
    server = createServer((request, response) => {
      requests.push(request.url!);
      const path = request.url!.split('?')[0];
      if (path === '/a') return response.end(a);
      if (path === '/b') return response.end(b);
      if (path === '/expired' && expiredOnce) {
        expiredOnce = false;
        response.statusCode = 403;
        return response.end('Request has expired');
      }
      if (path === '/expired') return response.end(a);
      if (path === '/short') return response.end(b.subarray(0, MiB));
      if (path === '/slow') {
        // Half now, half a little later: the entry takes a while to arrive.
        response.write(a.subarray(0, MiB));
        setTimeout(() => response.end(a.subarray(MiB), () => events.push('store: all of /slow sent')), 150);
        return;
      }
      response.statusCode = 500;
      response.end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const notRead = () => {
    throw new Error('A passed-through entry must not be read by the media worker.');
  };
  /** The archive's entries as the media worker makes them, the clips' bytes at `paths` on the stand-in. */
  const entries = (paths: [string, string]): ZipEntry[] => [
    { name: 'interviews/', directory: true, lastModified: new Date(2026, 0, 1) },
    {
      name: 'interviews/a.mov',
      size: a.length,
      crc32: crc32(a),
      lastModified: new Date(2026, 0, 1),
      open: notRead,
      link: async () => `${origin}${paths[0]}?n=${requests.length}`,
    },
    { name: 'b_roll/b.mov', size: b.length, crc32: crc32(b), lastModified: new Date(2026, 0, 1), open: notRead, link: async () => `${origin}${paths[1]}` },
  ];
  const computed = () =>
    whole(() => [
      { name: 'interviews/', directory: true, lastModified: new Date(2026, 0, 1) },
      { name: 'interviews/a.mov', size: a.length, lastModified: new Date(2026, 0, 1), open: () => byteStream(a) },
      { name: 'b_roll/b.mov', size: b.length, lastModified: new Date(2026, 0, 1), open: () => byteStream(b) },
    ]);

  async function download(id: string, paths: [string, string]) {
    const sw = downloadServiceWorker();
    const { port } = await sw.register(id, 'x.zip');
    const read: number[] = [];
    const controller = new AbortController();
    const sent = outcome(
      sendArchive(port, 'entries', zipParts(entries(paths), undefined, { heldChunks: 0, passthrough: true }), controller, (bytes) => read.push(bytes)),
    );
    return { response: await sw.open(id, 'x.zip'), sent, read, controller };
  }

  it('makes the same archive, byte for byte, as the worker computing every CRC, and reports the bytes it fetched', async () => {
    const { response, sent, read } = await download('e1', ['/a', '/b']);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(await sent).toBe('done');
    expect(bytes.equals(await computed())).toBe(true);
    expect(read.at(-1)).toBe(a.length + b.length);
  });

  it('asks once more for a link refused as expired', async () => {
    const { response, sent } = await download('e2', ['/expired', '/b']);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(await sent).toBe('done');
    expect(bytes.equals(await computed())).toBe(true);
    expect(requests.filter((path) => path.startsWith('/expired'))).toHaveLength(2);
  });

  it('fails the download, and the zip with it, when an entry is shorter than the archive says', async () => {
    const { response, sent, controller } = await download('e3', ['/a', '/short']);
    await expect(response.arrayBuffer()).rejects.toThrow(/"b_roll\/b.mov" was cut short/);
    expect(String(await sent)).toMatch(/was cut short/);
    expect(controller.signal.aborted).toBe(true);
  });

  it('fails the download, and the zip with it, when the store refuses an entry', async () => {
    const { response, sent } = await download('e4', ['/a', '/gone']);
    await expect(response.arrayBuffer()).rejects.toThrow(/"b_roll\/b.mov" could not be downloaded \(HTTP 500\)/);
    expect(String(await sent)).toMatch(/could not be downloaded \(HTTP 500\)/);
  });

  it('reads an entry without a CRC only once the service worker has fetched the one before it', async () => {
    // A clip registered a moment ago (no CRC yet) after one the service worker fetches: its
    // download must not be opened early and left unread while the first one arrives.
    const sw = downloadServiceWorker();
    const { port } = await sw.register('mixed', 'x.zip');
    const mixed: ZipEntry[] = [
      { name: 'interviews/', directory: true, lastModified: new Date(2026, 0, 1) },
      { name: 'interviews/a.mov', size: a.length, crc32: crc32(a), lastModified: new Date(2026, 0, 1), open: notRead, link: async () => `${origin}/slow` },
      {
        name: 'b_roll/b.mov',
        size: b.length,
        lastModified: new Date(2026, 0, 1),
        open: () => {
          events.push('worker: b opened');
          return byteStream(b);
        },
        link: async () => `${origin}/b`,
      },
    ];
    const sent = outcome(sendArchive(port, 'entries', zipParts(mixed, undefined, { heldChunks: 0, passthrough: true }), new AbortController()));
    const bytes = Buffer.from(await (await sw.open('mixed', 'x.zip')).arrayBuffer());
    expect(await sent).toBe('done');
    expect(bytes.equals(await computed())).toBe(true);
    expect(events.indexOf('store: all of /slow sent')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('worker: b opened')).toBeGreaterThan(events.indexOf('store: all of /slow sent'));
  });

  it('is not finished by a service worker that says done before the archive has ended', async () => {
    // Not the real service worker: a port that says `done` at once, as a confused or hostile one might.
    const channel = new MessageChannel();
    const controller = new AbortController();
    let settled = false;
    const sent = outcome(
      sendArchive(channel.port2, 'entries', zipParts(entries(['/a', '/b']), undefined, { heldChunks: 0, passthrough: true }), controller),
    ).then((result) => {
      settled = true;
      return result;
    });
    channel.port1.postMessage({ type: 'done' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    controller.abort(new Error('The download was cancelled.'));
    expect(String(await sent)).toContain('cancelled');
    channel.port1.close();
  });

  it('stops the zip when the download is cancelled in the middle of a fetched entry', async () => {
    const { response, sent, controller } = await download('e5', ['/a', '/b']);
    const reader = response.body!.getReader();
    for (let got = 0; got < MiB;) got += (await reader.read()).value?.length ?? 0;
    await reader.cancel();
    expect(await sent).toMatchObject({ name: 'DownloadCancelled' });
    expect(controller.signal.aborted).toBe(true);
  });
});
