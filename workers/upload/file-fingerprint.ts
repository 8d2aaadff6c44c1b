import { fingerprintPrefix, fingerprintRanges, hexOf } from '@/domain/fingerprint.ts';
import { TransportError } from '../transport.ts';

/**
 * Issue 35: the file's fingerprint (src/domain/fingerprint.ts): its size and 16 blocks of it,
 * 4 MiB read whatever its size, hashed with the browser's own SHA-256.
 */
export async function fileFingerprint(file: Blob, signal: AbortSignal): Promise<string> {
  const sampled = new Blob([fingerprintPrefix(file.size) as BlobPart, ...fingerprintRanges(file.size).map((range) => file.slice(range.start, range.end))]);
  const bytes = await sampled.arrayBuffer();
  if (signal.aborted) throw new TransportError('aborted', true);
  return hexOf(await crypto.subtle.digest('SHA-256', bytes));
}
