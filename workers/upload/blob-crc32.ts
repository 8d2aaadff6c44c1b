import { crc32 } from '@/domain/crc32.ts';
import { TransportError } from '../transport.ts';

/** Reads of this worker, one after the other (see blobCrc32). */
let reading: Promise<unknown> = Promise.resolve();

/**
 * Issue 35: the CRC-32 of a file's bytes as this device reads them, streamed (a part is never
 * whole in memory), computed before the bytes go so the store can refuse any that change on the
 * way. One read at a time in the worker: its one thread sums faster (1.2 GB/s) than parts go, and
 * reads of six parts at once held about 150 MiB more in the renderer (bench/upload-browser). Stops
 * at once when the upload stops.
 */
export function blobCrc32(blob: Blob, signal: AbortSignal): Promise<number> {
  const result = reading.then(() => readCrc32(blob, signal));
  reading = result.catch(() => undefined);
  return result;
}

async function readCrc32(blob: Blob, signal: AbortSignal): Promise<number> {
  if (signal.aborted) throw new TransportError('aborted', true);
  const reader = blob.stream().getReader();
  let crc = 0;
  try {
    for (;;) {
      if (signal.aborted) throw new TransportError('aborted', true);
      const { done, value } = await reader.read();
      if (done) return crc;
      crc = crc32(value, crc);
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
