/**
 * Child process: the browser's upload path, in Node. A worker thread runs the upload engine
 * the browser's upload worker runs (workers/upload-engine.ts: check-name, temporary
 * credentials, 20 MiB parts 6 at a time, IndexedDB as parts finish — fake-indexeddb here —,
 * registration) against the real server and its embedded store, the file read from disk as
 * a Blob. Modes: `full` (one upload) and `interrupt` (the engine dies at 50 %, a new one
 * resumes from IndexedDB + ListParts). Prints one JSON line.
 */
import 'fake-indexeddb/auto';
import { openAsBlob } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

export interface WorkerJob {
  mode: 'full' | 'interrupt';
  file: string;
  size: number;
  baseUrl: string;
  token: string;
  userId: number;
  organizationId: number;
  projectId: number;
}

export interface WorkerResult {
  seconds: number;
  /** Until every byte was sent (the rest: completing the multipart upload, registration). */
  allBytesSentSeconds?: number;
  bytes: number;
  /** Bytes of every part PUT started (aborted ones counted whole: they must go again). */
  putBytes: number;
  partPuts: number;
  /** Interrupt mode: what the first engine sent, parts it had stored, parts in flight when it died. */
  firstRun?: { putBytes: number; partsStored: number; partsInFlight: number; loadedAtInterruption: number };
  secondRun?: { putBytes: number; partPuts: number; seconds: number };
  key: string | null;
  assetId: number | null;
}

if (isMainThread) {
  const job = JSON.parse(process.argv[2]!) as WorkerJob;
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const result = await new Promise<WorkerResult>((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.on('message', (message: WorkerResult) => resolve(message));
    worker.on('error', reject);
    worker.on('exit', (code) => code !== 0 && reject(new Error(`worker exited with ${code}`)));
  });
  clearInterval(sample);
  console.log(JSON.stringify({ ...result, peakRssBytes: Math.max(peak, process.resourceUsage().maxRSS * 1024) }));
  process.exit(0);
} else {
  await import('./alias.ts');
  const { UploadEngine } = await import('../../workers/upload-engine.ts');
  const { openUploadStore } = await import('../../workers/upload-store.ts');
  const { createServerApi } = await import('../../workers/server-api.ts');
  const { fetchTransport } = await import('../../workers/transport.ts');
  type Snapshot = import('../../workers/upload-engine.ts').UploadSnapshot;
  type Transport = import('../../workers/transport.ts').Transport;

  const job = workerData as WorkerJob;
  const api = createServerApi({ baseUrl: `${job.baseUrl}/api/v1`, getToken: () => job.token });
  const store = await openUploadStore('bench-uploads');
  const file = new File([await openAsBlob(job.file, { type: 'video/mp4' })], 'bench-1gib.mp4', { type: 'video/mp4', lastModified: 1_700_000_000_000 });

  /**
   * fetch with upload progress, as XHR gives the browser: the Blob goes out as a stream whose
   * reads are counted (what the socket took), with its length declared.
   */
  const progressFetch: typeof fetch = (input, init) => {
    const body = init?.body;
    const progress = (init as { onUploadProgress?: (n: number) => void } | undefined)?.onUploadProgress;
    if (!(body instanceof Blob) || !progress) return fetch(input, init);
    let sent = 0;
    const reader = body.stream().getReader();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        sent += value.byteLength;
        progress(sent);
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    const headers = new Headers(init?.headers);
    headers.set('content-length', String(body.size));
    return fetch(input, { ...init, body: stream, headers, duplex: 'half' } as RequestInit);
  };
  const streamingTransport: Transport = async (request) => {
    const { onUploadProgress, ...rest } = request;
    const inner = fetchTransport(((input: string, init: RequestInit) => progressFetch(input, { ...init, onUploadProgress } as RequestInit)) as typeof fetch);
    return inner(rest);
  };

  const counting = () => {
    const counters = { putBytes: 0, partPuts: 0, inFlight: 0 };
    const inner = streamingTransport;
    const transport: Transport = async (request) => {
      const isPart = request.method === 'PUT' && request.url.includes('partNumber=');
      if (request.method === 'PUT' && request.body && typeof request.body !== 'string') counters.putBytes += request.body.size;
      if (isPart) {
        counters.partPuts += 1;
        counters.inFlight += 1;
      }
      try {
        return await inner(request);
      } finally {
        if (isPart) counters.inFlight -= 1;
      }
    };
    return { counters, transport };
  };

  const engineWith = (transport: Transport, onChange: (s: Snapshot) => void) =>
    new UploadEngine({ api, transport, store, userId: job.userId, organizationId: job.organizationId, onChange, autoRetryMs: 0 });

  const waitFor = (predicate: (s: Snapshot) => boolean) => {
    let resolve!: (s: Snapshot) => void;
    const promise = new Promise<Snapshot>((r) => (resolve = r));
    return { onChange: (s: Snapshot) => predicate(s) && resolve(s), promise };
  };
  const done = (s: Snapshot) => s.items.length > 0 && s.items.every((item) => item.status === 'done' || item.status === 'incomplete');

  const started = performance.now();
  const first = counting();
  let result: WorkerResult;
  if (job.mode === 'full') {
    let allSentAt = 0;
    const finished = waitFor((s) => {
      if (!allSentAt && s.items[0]?.loaded === job.size) allSentAt = performance.now();
      return done(s);
    });
    const engine = engineWith(first.transport, finished.onChange);
    await engine.enqueue([{ file }], { projectId: job.projectId, type: 'INTERVIEW_CLIP' });
    const last = await finished.promise;
    const item = last.items[0]!;
    if (item.status !== 'done') throw new Error(`upload ended ${item.status}: ${item.error}`);
    result = {
      seconds: (performance.now() - started) / 1000,
      allBytesSentSeconds: (allSentAt - started) / 1000,
      bytes: job.size,
      putBytes: first.counters.putBytes,
      partPuts: first.counters.partPuts,
      key: item.key,
      assetId: item.assetId,
    };
  } else {
    const half = waitFor((s) => (s.items[0]?.loaded ?? 0) >= job.size / 2);
    const a = engineWith(first.transport, half.onChange);
    const { accepted } = await a.enqueue([{ file }], { projectId: job.projectId, type: 'INTERVIEW_CLIP' });
    const atHalf = await half.promise;
    const partsInFlight = first.counters.inFlight;
    a.destroy(); // the tab dies: requests in flight are lost, IndexedDB stays
    const partsStored = (await store.get(accepted[0]!))?.parts.length ?? 0;

    const second = counting();
    let resuming = false;
    const finished = waitFor((s) => resuming && done(s));
    const resumedAt = performance.now();
    const b = engineWith(second.transport, finished.onChange);
    await b.start();
    resuming = true;
    await b.provideFile(accepted[0]!, file);
    const last = await finished.promise;
    const item = last.items[0]!;
    if (item.status !== 'done') throw new Error(`resumed upload ended ${item.status}: ${item.error}`);
    result = {
      seconds: (performance.now() - started) / 1000,
      bytes: job.size,
      putBytes: first.counters.putBytes + second.counters.putBytes,
      partPuts: first.counters.partPuts + second.counters.partPuts,
      firstRun: { putBytes: first.counters.putBytes, partsStored, partsInFlight, loadedAtInterruption: atHalf.items[0]!.loaded },
      secondRun: { putBytes: second.counters.putBytes, partPuts: second.counters.partPuts, seconds: (performance.now() - resumedAt) / 1000 },
      key: item.key,
      assetId: item.assetId,
    };
  }
  parentPort!.postMessage(result);
}
