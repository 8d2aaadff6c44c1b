import { crc32 } from '@/domain/crc32.ts';
import { TransportError } from '../transport.ts';

/**
 * Issue 35: the CRC-32 of a file's bytes as this device reads them, streamed (a part is never
 * whole in memory), computed before the bytes go so the store can refuse any that change on the
 * way. Stops at once when the upload stops.
 */
export async function blobCrc32(blob: Blob, signal: AbortSignal): Promise<number> {
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
