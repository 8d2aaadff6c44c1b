/**
 * Child process: the worker path of the browser, in Node. A worker thread runs the same
 * zip writer (workers/zip.ts) the media worker runs, fetches each entry from a
 * presigned URL of the store, and streams the archive into a file (as the File System Access
 * path does). Prints one JSON line: seconds, bytes, peak RSS.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { zipStream, type ZipEntry } from '../../workers/zip.ts';

interface Job {
  out: string;
  entries: { name: string; size?: number; url?: string }[];
}

if (isMainThread) {
  const job = JSON.parse(process.argv[2]!) as Job;
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.on('message', () => resolve());
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited with ${code}`))));
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sample);
  const size = (await stat(job.out)).size;
  console.log(JSON.stringify({ seconds, bytes: size, peakRssBytes: Math.max(peak, process.resourceUsage().maxRSS * 1024) }));
} else {
  const job = workerData as Job;
  const entries: ZipEntry[] = job.entries.map((entry) =>
    entry.url
      ? {
          name: entry.name,
          ...(entry.size !== undefined && { size: entry.size }),
          open: async () => {
            const response = await fetch(entry.url!);
            if (!response.ok || !response.body) throw new Error(`GET ${entry.name}: ${response.status}`);
            return response.body;
          },
        }
      : { name: entry.name, directory: true as const },
  );
  await zipStream(entries).pipeTo(Writable.toWeb(createWriteStream(job.out)) as WritableStream<Uint8Array>);
  parentPort!.postMessage('done');
}
