/**
 * Issue 35, "never send the same bytes twice": a file's fingerprint, cheap enough to take before
 * every upload. SHA-256 over the file's size and 16 blocks of 256 KiB spread evenly from its
 * first byte to its last (the whole file when it is 4 MiB or less): 4 MiB read whatever the size.
 * The upload worker takes it from the file on the disk, the media worker from the stored object
 * as it reads it for its CRC-32 (server/media/pipeline.ts). Equal fingerprints only nominate a
 * stored copy: the whole file's CRC-32 must equal the stored object's too before it is reused.
 */

export const FINGERPRINT_BLOCK = 256 * 1024;
export const FINGERPRINT_BLOCKS = 16;
const VERSION = 'cutdesk-fingerprint-v1';

export interface ByteRange {
  start: number;
  /** Exclusive. */
  end: number;
}

/** The bytes a fingerprint reads, in order, never overlapping. */
export function fingerprintRanges(size: number): ByteRange[] {
  if (size <= FINGERPRINT_BLOCK * FINGERPRINT_BLOCKS) return size > 0 ? [{ start: 0, end: size }] : [];
  const last = size - FINGERPRINT_BLOCK;
  return Array.from({ length: FINGERPRINT_BLOCKS }, (_, i) => {
    const start = Math.floor((last * i) / (FINGERPRINT_BLOCKS - 1));
    return { start, end: start + FINGERPRINT_BLOCK };
  });
}

/** What the hash starts with: the version and the size (two files of other sizes never match). */
export function fingerprintPrefix(size: number): Uint8Array {
  return new TextEncoder().encode(`${VERSION} ${size}\n`);
}

/**
 * The parts of a chunk of a stream (`chunkStart` its offset, `chunkLength` its bytes) that fall
 * in `ranges`, as offsets within the chunk: what a reader hashes as the bytes go by.
 */
export function slicesInChunk(ranges: readonly ByteRange[], chunkStart: number, chunkLength: number): [number, number][] {
  const chunkEnd = chunkStart + chunkLength;
  const slices: [number, number][] = [];
  for (const range of ranges) {
    const from = Math.max(range.start, chunkStart);
    const to = Math.min(range.end, chunkEnd);
    if (to > from) slices.push([from - chunkStart, to - chunkStart]);
  }
  return slices;
}

/** A fingerprint as sent and stored: 64 lower-case hex digits. */
export const FINGERPRINT_PATTERN = /^[0-9a-f]{64}$/;

export function hexOf(digest: ArrayBuffer | Uint8Array): string {
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
