import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { crc32 as nodeCrc32 } from 'node:zlib';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../src/domain/contract/uploads.ts';
import { assetKey, sanitizeFileName } from '../../src/domain/uploads.ts';
import { zipPlan } from '../../src/domain/zip-plan.ts';
import { crc32, safeEntryName, zipChunks, zipParts, zipStream, type ZipEntry } from '../../workers/zip.ts';
import { byteStream } from '../support/byte-stream.ts';

const exec = promisify(execFile);
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** A stream of `size` bytes: `chunk` repeated, never more than one chunk in memory. */
function generated(size: number, chunk: Uint8Array): ReadableStream<Uint8Array> {
  let left = size;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (left <= 0) return controller.close();
        const n = Math.min(left, chunk.length);
        controller.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
        left -= n;
      },
    },
    { highWaterMark: 0 },
  );
}

function fromBytes(data: Uint8Array, chunkSize = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= data.length) return controller.close();
      controller.enqueue(data.subarray(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

async function writeZip(entries: ZipEntry[], file: string): Promise<number> {
  await zipStream(entries).pipeTo(Writable.toWeb(createWriteStream(file)) as WritableStream<Uint8Array>);
  return process.memoryUsage().rss;
}

/**
 * Python's zipfile (an independent reader): every entry's name, size, CRC-32 (which it checks
 * against the bytes as it reads them) and SHA-256 — for entries under 1 GiB: past that the
 * checked CRC-32 tells the bytes apart, and hashing 4 GiB twice more was a third of this file.
 */
async function pythonRead(file: string): Promise<{ name: string; size: number; crc: number; sha256: string | null; dir: boolean; stored: boolean }[]> {
  const script = `
import sys, zipfile, hashlib, json
out = []
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        h = hashlib.sha256() if info.file_size < (1 << 30) else None
        with z.open(info) as f:
            while True:
                b = f.read(1 << 20)
                if not b: break
                if h: h.update(b)
        out.append({"name": info.filename, "size": info.file_size, "crc": info.CRC, "sha256": h.hexdigest() if h else None, "dir": info.is_dir(), "stored": info.compress_type == 0})
print(json.dumps(out))
`;
  const { stdout } = await exec('python3', ['-c', script, file], { maxBuffer: 64 * MiB });
  return JSON.parse(stdout) as { name: string; size: number; crc: number; sha256: string | null; dir: boolean; stored: boolean }[];
}

const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cutdesk-zip-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('crc32', () => {
  it('matches zlib for every length and split', () => {
    const data = randomBytes(10_000);
    for (const n of [0, 1, 7, 8, 9, 63, 1000, 10_000]) expect(crc32(data.subarray(0, n))).toBe(nodeCrc32(data.subarray(0, n)));
    expect(crc32(data.subarray(4321), crc32(data.subarray(0, 4321)))).toBe(nodeCrc32(data));
  });
});

describe('zip writer', () => {
  it('keeps entry paths inside the archive', () => {
    expect(safeEntryName('../../etc/passwd')).toBe('etc/passwd');
    expect(safeEntryName('interviews\\a.mov')).toBe('interviews/a.mov');
    expect(safeEntryName('b_roll/')).toBe('b_roll/');
  });

  it("names an uploaded file's entry as the person named it, flagged UTF-8 (general purpose bit 11) in both headers (issue 36)", async () => {
    const name = sanitizeFileName('b roll café ünïcødé 日本.mov');
    const data = new Uint8Array([1, 2, 3]);
    const asset: Asset = {
      id: 1,
      name,
      size: 3,
      type: { name: 'BROLL_CLIP' },
      path: assetKey(1, 'BROLL_CLIP', name),
      previewPath: null,
      folder: null,
      createdAt: '2026-11-29T00:00:00Z',
      deletedAt: null,
      url: null,
      previewUrl: null,
      crc32: null,
      sentCrc32: null,
    };
    const entry = zipPlan([asset], 'raw').plan.find((e) => e.ref)!;
    expect(entry.name).toBe('b_roll/b roll café ünïcødé 日本.mov');
    const chunks: Uint8Array[] = [];
    for await (const chunk of zipChunks([{ name: entry.name, size: 3, open: () => fromBytes(data) }])) chunks.push(chunk.slice());
    const zip = Buffer.concat(chunks);
    const encoded = Buffer.from(entry.name, 'utf8');
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    // Local header: flags at 6, name length at 26, name at 30; central header: flags at 8, name at 46.
    expect(zip.readUInt16LE(6) & 0x0800).toBe(0x0800);
    expect(zip.subarray(30, 30 + zip.readUInt16LE(26)).equals(encoded)).toBe(true);
    expect(zip.readUInt16LE(central + 8) & 0x0800).toBe(0x0800);
    expect(zip.subarray(central + 46, central + 46 + zip.readUInt16LE(central + 28)).equals(encoded)).toBe(true);
  });

  it('writes folders and byte-identical entries that unzip, Python and JSZip read', async () => {
    const files = {
      'interviews/talk.mov': randomBytes(3 * MiB + 17),
      'b_roll/city.mp4': randomBytes(150_000),
      'assets/logo.png': randomBytes(999),
      'assets/Ünïcødé 名前.jpg': randomBytes(12),
      'assets/empty.txt': new Uint8Array(0),
    };
    const entries: ZipEntry[] = [
      { name: 'assets/', directory: true },
      { name: 'interviews/', directory: true },
      { name: 'b_roll/', directory: true },
      ...Object.entries(files).map(([name, data], i) => ({ name, size: i === 1 ? undefined : data.length, open: () => fromBytes(data, 10_000 + i) })),
    ];
    const file = join(dir, 'small.zip');
    await writeZip(entries, file);

    await exec('unzip', ['-t', '-qq', file]);
    const read = await pythonRead(file);
    expect(read.filter((e) => e.dir).map((e) => e.name)).toEqual(['assets/', 'interviews/', 'b_roll/']);
    for (const [name, data] of Object.entries(files)) {
      expect(read.find((e) => e.name === name)).toMatchObject({ size: data.length, sha256: sha(data), stored: true });
    }
    const { readFile } = await import('node:fs/promises');
    const jszip = await JSZip.loadAsync(await readFile(file));
    expect(Buffer.from(await jszip.file('interviews/talk.mov')!.async('uint8array')).equals(files['interviews/talk.mov'])).toBe(true);
  });

  it('reads a byte stream (a fetch body) in 1 MiB chunks straight into its buffers, byte-identical, and refuses one cut short', async () => {
    const data = randomBytes(3 * MiB + 12_345);
    const body = (limit = data.length) => byteStream(data, { limit });
    const sizes: number[] = [];
    for await (const chunk of zipChunks([{ name: 'interviews/talk.mov', size: data.length, open: () => body() }])) sizes.push(chunk.length);
    // Local header, three full 1 MiB chunks and the rest, data descriptor, central directory, end.
    expect(sizes.slice(1, 5)).toEqual([MiB, MiB, MiB, 12_345]);

    const file = join(dir, 'bytes.zip');
    await writeZip(
      [
        { name: 'interviews/', directory: true },
        { name: 'interviews/talk.mov', size: data.length, open: () => body() },
      ],
      file,
    );
    await exec('unzip', ['-t', '-qq', file]);
    expect((await pythonRead(file)).find((e) => e.name === 'interviews/talk.mov')).toMatchObject({ size: data.length, sha256: sha(data), stored: true });
    await expect(writeZip([{ name: 'a.bin', size: data.length, open: () => body(MiB + 7) }], join(dir, 'bytes-short.zip'))).rejects.toThrow(/cut short/);
  });

  it('with heldChunks reads every entry of a byte stream into a few buffers, and a reader that holds no more than it said gets the same archive', async () => {
    const first = randomBytes(5 * MiB + 777);
    const second = randomBytes(MiB + 3);
    // Dated: an undated entry takes the clock's time (2-second DOS resolution), so three
    // collects straddling a tick would differ in their headers, not in what is compared.
    const when = new Date(2026, 0, 1);
    const entries = (): ZipEntry[] => [
      { name: 'interviews/a.mov', size: first.length, lastModified: when, open: () => byteStream(first) },
      { name: 'b_roll/b.mov', size: second.length, lastModified: when, open: () => byteStream(second) },
    ];
    /** The reader holds `held` chunks before copying the oldest (as a file's writer with writes in flight would). */
    const collect = async (held?: number) => {
      const copies: Uint8Array[] = [];
      const memory = new Set<ArrayBufferLike>();
      const holding: Uint8Array[] = [];
      const take = (chunk: Uint8Array) => copies.push(chunk.slice());
      for await (const chunk of zipChunks(entries(), undefined, held === undefined ? {} : { heldChunks: held })) {
        holding.push(chunk);
        if (holding.length > (held ?? 0)) take(holding.shift()!);
        if (chunk.length === MiB) memory.add(chunk.buffer);
      }
      holding.forEach(take);
      return { bytes: Buffer.concat(copies), fullChunks: copies.filter((c) => c.length === MiB).length, memory };
    };
    const fresh = await collect();
    const reused = await collect(0);
    const ahead = await collect(2);
    expect(reused.bytes.equals(fresh.bytes)).toBe(true);
    expect(ahead.bytes.equals(fresh.bytes)).toBe(true);
    expect(reused.fullChunks).toBe(6);
    expect([...ahead.memory].filter((buffer) => buffer.byteLength === 0).length).toBeGreaterThanOrEqual(2);
    // A byte stream's read moves the buffer (a new ArrayBuffer object over the same memory), so
    // the proof of reuse is that the chunks read later were detached by the reads after them.
    expect([...reused.memory].filter((buffer) => buffer.byteLength === 0).length).toBeGreaterThanOrEqual(2);
    expect([...fresh.memory].every((buffer) => buffer.byteLength > 0)).toBe(true);

    const file = join(dir, 'reused.zip');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, reused.bytes);
    await exec('unzip', ['-t', '-qq', file]);
    const read = await pythonRead(file);
    expect(read.find((e) => e.name === 'interviews/a.mov')).toMatchObject({ size: first.length, sha256: sha(first) });
    expect(read.find((e) => e.name === 'b_roll/b.mov')).toMatchObject({ size: second.length, sha256: sha(second) });
  });

  it('takes a CRC-32 the server computed instead of computing it, and passes such an entry on to a reader that fetches it', async () => {
    const a = randomBytes(MiB + 3);
    const b = randomBytes(70_000);
    const when = new Date(2026, 0, 1);
    const plain: ZipEntry[] = [
      { name: 'interviews/a.mov', size: a.length, lastModified: when, open: () => fromBytes(a) },
      { name: 'b_roll/b.mov', size: b.length, lastModified: when, open: () => fromBytes(b) },
    ];
    const collect = async (entries: ZipEntry[]) => {
      const parts: Uint8Array[] = [];
      for await (const chunk of zipChunks(entries)) parts.push(chunk);
      return Buffer.concat(parts);
    };
    const computed = await collect(plain);
    // Declared CRCs are written as they are, not computed: a wrong one would reach the archive.
    expect((await collect(plain.map((entry, i) => ({ ...entry, crc32: nodeCrc32([a, b][i]!) })))).equals(computed)).toBe(true);
    expect((await collect([{ ...plain[0]!, crc32: 1234 }])).includes(Buffer.from([0xd2, 0x04, 0, 0]))).toBe(true);
    // With `passthrough`, the entry with a link and a known CRC comes out in place of its bytes;
    // the reader that puts them in gets the computed archive.
    const parts: (Uint8Array | string)[] = [];
    const linked: ZipEntry[] = [
      { ...plain[0]!, crc32: nodeCrc32(a), link: async () => 'https://store.test/a' },
      { ...plain[1]!, crc32: nodeCrc32(b) },
    ];
    for await (const part of zipParts(linked, undefined, { passthrough: true })) parts.push(part instanceof Uint8Array ? part : part.passthrough.name);
    expect(parts.filter((part) => typeof part === 'string')).toEqual(['interviews/a.mov']);
    expect(Buffer.concat(parts.map((part) => (typeof part === 'string' ? a : part))).equals(computed)).toBe(true);
  });

  it('refuses an entry that is shorter than declared (a cut download) instead of writing a broken archive', async () => {
    const entries: ZipEntry[] = [{ name: 'a.bin', size: 100, open: () => fromBytes(new Uint8Array(50)) }];
    await expect(writeZip(entries, join(dir, 'short.zip'))).rejects.toThrow(/cut short/);
  });

  it('uses Zip64 for an entry over 4 GiB and for offsets past 4 GiB, with bounded memory', async () => {
    const chunk = randomBytes(4 * MiB);
    const big = 4 * GiB + 3 * MiB + 5;
    const after = randomBytes(2 * MiB);
    const entries: ZipEntry[] = [
      { name: 'interviews/', directory: true },
      { name: 'interviews/huge.mov', size: big, open: () => generated(big, chunk) },
      { name: 'b_roll/after.mp4', size: after.length, open: () => fromBytes(after) },
    ];
    const file = join(dir, 'big.zip');
    const rssBefore = process.memoryUsage().rss;
    const rssAfter = await writeZip(entries, file);
    expect(rssAfter - rssBefore).toBeLessThan(256 * MiB);
    expect((await stat(file)).size).toBeGreaterThan(big);

    // Info-ZIP lists the sizes from the Zip64 records.
    const { stdout } = await exec('unzip', ['-Z', '-l', file]);
    expect(stdout).toContain(String(big));
    // Python checks the CRC of every entry against its bytes while reading it, and hashes the small one.
    const read = await pythonRead(file);
    expect(read.find((e) => e.name === 'b_roll/after.mp4')).toMatchObject({ size: after.length, sha256: sha(after) });
    // The big one's checked CRC is the CRC of the bytes given, as zlib computes it.
    let crc = 0;
    for (let left = big; left > 0; left -= chunk.length) crc = nodeCrc32(left >= chunk.length ? chunk : chunk.subarray(0, left), crc);
    expect(read.find((e) => e.name === 'interviews/huge.mov')).toMatchObject({ size: big, crc });
    await rm(file);
  }, 300_000);
});
