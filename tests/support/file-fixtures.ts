import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/**
 * Test files with real signatures. The server decides what a file is from its first bytes
 * (issue 9), so a fixture named .mp4 starts like an MP4 and one named .png is a PNG.
 */

/** An ISO-BMFF `ftyp` box (major brand isom), the first 24 bytes of an ordinary MP4. */
export const MP4_FTYP = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');

/** `size` bytes that start with an MP4 `ftyp` box (cut to `size` below 24; 12 still sniff as MP4), the rest `fill` or random. */
export function mp4Bytes(size: number, fill: Buffer = randomBytes(Math.max(0, size - MP4_FTYP.length))): Buffer {
  if (size < 12) throw new RangeError('an MP4 signature needs 12 bytes');
  return Buffer.concat([MP4_FTYP, fill]).subarray(0, size);
}

const CRC_TABLE = Array.from({ length: 256 }, (_v, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1×1 RGB PNG; with `size` (at least 90) padded to exactly that many bytes with a text chunk. */
export function pngBytes(size?: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const parts = [signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from([0, 0x33, 0x66, 0x99]))), chunk('IEND', Buffer.alloc(0))];
  const bare = Buffer.concat(parts).length;
  if (size === undefined) return Buffer.concat(parts);
  const textBytes = size - bare - 12 - 'Comment\0'.length;
  if (textBytes < 0) throw new RangeError(`a padded PNG needs at least ${bare + 20} bytes`);
  const text = chunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(textBytes, 0x2e)]));
  return Buffer.concat([parts[0]!, parts[1]!, text, parts[2]!, parts[3]!]);
}
