import { describe, expect, it } from 'vitest';
import { zipLength, zipParts, type ZipEntry } from '../../src/domain/zip-archive.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** `size` bytes as 1 MiB views of one buffer: the writer counts them without a copy (the CRC-32 is given). */
function repeated(size: number): AsyncIterable<Uint8Array> {
  const block = new Uint8Array(MiB);
  return (async function* () {
    for (let left = size; left > 0; left -= MiB) yield left >= MiB ? block : block.subarray(0, left);
  })();
}

const file = (name: string, size: number, crc32?: number): ZipEntry => ({
  name,
  size,
  ...(crc32 !== undefined && { crc32 }),
  lastModified: new Date(2026, 10, 29),
  open: () => repeated(size),
});

async function written(entries: ZipEntry[]): Promise<number> {
  let length = 0;
  for await (const part of zipParts(entries)) length += (part as Uint8Array).length;
  return length;
}

describe('the length of an archive, told before it is written (the raw zip declares it, issue 34)', () => {
  it('matches what is written: folders, UTF-8 names, a CRC-32 known or not', async () => {
    const entries = (): ZipEntry[] => [
      { name: 'assets/', directory: true },
      { name: 'interviews/', directory: true },
      file('interviews/Ünïcode – 東京.mp4', 3 * MiB + 17, 0x1234abcd),
      file('assets/logo.png', 5_000),
      file('assets/empty.txt', 0),
    ];
    expect(await zipLength(entries())).toBe(await written(entries()));
  });

  it('matches past 4 GiB: an entry of 4 GiB and more (Zip64 sizes), and one written past offset 4 GiB (Zip64 offset)', async () => {
    const entries = (): ZipEntry[] => [
      file('interviews/big.mov', 4 * GiB + MiB, 7),
      file('b_roll/after.mov', MiB + 3, 9),
      { name: 'b_roll/', directory: true },
    ];
    expect(await zipLength(entries())).toBe(await written(entries()));
  }, 120_000);

  it('cannot be told without every size', async () => {
    await expect(zipLength([{ name: 'x.mov', open: () => repeated(1) }])).rejects.toThrow('The size of "x.mov" is not known.');
  });
});
