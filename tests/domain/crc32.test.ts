import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Combine, crc32FromBase64, crc32Hex, crc32OfRuns, crc32ToBase64 } from '../../src/domain/crc32.ts';

/** Bytes that are not all alike, so a wrong table or word order shows. */
function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('CRC-32, as the upload worker computes it over each part (issue 35)', () => {
  it('equals zlib for every length and alignment, continued or in one go', () => {
    const data = bytes(4_099, 7);
    for (const offset of [0, 1, 2, 3, 5]) {
      for (const length of [0, 1, 3, 4, 15, 16, 17, 63, 64, 65, 1_000, 4_000]) {
        const slice = data.subarray(offset, offset + length);
        expect(crc32(slice)).toBe(zlibCrc32(slice));
        const cut = length >> 1;
        expect(crc32(slice.subarray(cut), crc32(slice.subarray(0, cut)))).toBe(zlibCrc32(slice));
      }
    }
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it("gives a whole object's CRC from its parts' CRCs and sizes, as S3's full-object checksum", () => {
    const whole = bytes(50_000, 11);
    const cuts = [0, 1, 20_000, 20_003, 49_999, 50_000];
    const runs = cuts.slice(1).map((end, i) => {
      const run = whole.subarray(cuts[i], end);
      return { crc32: zlibCrc32(run), size: run.length };
    });
    expect(crc32OfRuns(runs)).toBe(zlibCrc32(whole));
    expect(crc32Combine(0x12345678, 0, 0)).toBe(0x12345678);
  });

  it('combines past 4 GiB the same way whichever runs are joined first', () => {
    const [a, b, c] = [0xdeadbeef, 0x01234567, 0x89abcdef];
    const [lb, lc] = [5 * 2 ** 30 + 17, 3 * 2 ** 32 + 5];
    expect(crc32Combine(crc32Combine(a, b, lb), c, lc)).toBe(crc32Combine(a, crc32Combine(b, c, lc), lb + lc));
    // A run of zeros: combining equals computing, with a length that crosses 2^16 in steps.
    const zeros = new Uint8Array(70_001);
    expect(crc32Combine(crc32(zeros.subarray(0, 1)), crc32(zeros.subarray(1)), 70_000)).toBe(zlibCrc32(zeros));
  });

  it("is spelt as S3's header (base64 of the big-endian bytes) and as people compare it (hex)", () => {
    const value = zlibCrc32(bytes(1_000, 3));
    const header = Buffer.alloc(4);
    header.writeUInt32BE(value);
    expect(crc32ToBase64(value)).toBe(header.toString('base64'));
    expect(crc32FromBase64(header.toString('base64'))).toBe(value);
    for (const bad of ['', 'AAAA', 'AAAAAA=', 'AAAAAAA=', 'AA AAA==', '<script>']) expect(crc32FromBase64(bad)).toBeNull();
    expect(crc32Hex(0x0a)).toBe('0000000a');
    expect(crc32Hex(0xcbf43926)).toBe('cbf43926');
  });
});
