/**
 * bench/zip-client-zip (issue 10, "Libraries where ours add nothing"): client-zip's streaming
 * `makeZip` against our Zip64 writer (workers/zip.ts) on the same generated entries, in
 * the same run. Every measurement is a child process of its own (its peak RSS is its own); the
 * two writers alternate, 3 rounds per set, and the figures are min / median / max and ratios.
 * Entries are generated as they are read (a random 1 MiB block, copied and stamped per block:
 * incompressible, no two blocks alike), never held in memory; the timed archives go to
 * /dev/null so the figures are the writers' own cost, not the disk's.
 *
 * Correctness (the bars of tests/workers/zip.test.ts), each writer's archive on disk:
 * - the 1 GiB set with UTF-8 names (Cyrillic, CJK, accents, emoji) and folders;
 * - an entry of 4 GiB + 1 MiB followed by one whose offset is past 4 GiB (skip: BENCH_ZIP_BIG=0);
 * each read by Python's zipfile (every entry read whole, so its CRC is checked; names, sizes,
 * offsets and each entry's CRC compared with the one computed here at generation) and by
 * `unzip -t`.
 *
 * `node bench/zip-client-zip.ts` — prints one JSON document. BENCH_ZIP_SETS_GIB=1,3 and
 * BENCH_ZIP_ROUNDS=3 change the sets and rounds.
 */
import { execFile } from 'node:child_process';
import { runChild as runMeasurement } from './child-process.ts';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { makeZip } from 'client-zip';
import { zipStream, type ZipEntry } from '../workers/zip.ts';

const exec = promisify(execFile);
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const BLOCK = MiB;
const CLIP = 256 * MiB;
const SETS_GIB = (process.env.BENCH_ZIP_SETS_GIB ?? '1,3').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ZIP_ROUNDS ?? 3);
const BIG = process.env.BENCH_ZIP_BIG !== '0';

type Writer = 'ours' | 'client-zip';
const WRITERS: Writer[] = ['ours', 'client-zip'];

interface Spec {
  name: string;
  /** Absent for a folder. */
  size?: number;
  seed?: number;
}

interface Job {
  writer: Writer;
  out: string;
  entries: Spec[];
}

interface Result {
  seconds: number;
  bytes: number;
  peakRssBytes: number;
  /** CRC-32 of each file entry as generated (zlib's, independent of both writers). */
  crcs: Record<string, number>;
}

/** UTF-8 names from several scripts, in A§2's folders. */
const NAMES = [
  'interviews/интервью-01.mp4',
  'b_roll/東京の夜景.mov',
  'interviews/café-crème_été.mp4',
  'b_roll/🎬-take-2.mp4',
  'assets/λόγος-Ω.mp4',
  'b_roll/שלום-עולם.mp4',
];

function setEntries(total: number): Spec[] {
  const entries: Spec[] = [{ name: 'assets/' }, { name: 'interviews/' }, { name: 'b_roll/' }];
  for (let i = 0, left = total; left > 0; i += 1) {
    const size = Math.min(CLIP, left);
    const base = NAMES[i % NAMES.length]!;
    entries.push({ name: base.replace(/(\.\w+)$/, `-${String(i).padStart(2, '0')}$1`), size, seed: i + 1 });
    left -= size;
  }
  return entries;
}

/** One entry of 4 GiB + 1 MiB (Zip64 sizes), then one at an offset past 4 GiB (Zip64 offset). */
const BIG_ENTRIES: Spec[] = [
  { name: 'interviews/' },
  { name: 'interviews/très-grand-интервью.mov', size: 4 * GiB + MiB, seed: 101 },
  { name: 'b_roll/après-4GiB-东京.mp4', size: 3 * MiB + 17, seed: 102 },
];

const mb = (bytes: number) => Math.round(bytes / MiB);

// ——— Child process: one archive by one writer ———

async function runChild(job: Job): Promise<void> {
  const template = randomBytes(BLOCK);
  const crcs: Record<string, number> = {};
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);

  /** `size` bytes: the template copied and stamped with the seed and block number, block by block. */
  const generated = (spec: Spec): ReadableStream<Uint8Array> => {
    let left = spec.size!;
    let block = 0;
    let crc = 0;
    return new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (left <= 0) {
            crcs[spec.name] = crc;
            return controller.close();
          }
          const n = Math.min(BLOCK, left);
          const out = Buffer.from(template.subarray(0, n));
          if (n >= 8) {
            out.writeUInt32LE(spec.seed!, 0);
            out.writeUInt32LE(block, 4);
          }
          crc = zlibCrc32(out, crc);
          block += 1;
          left -= n;
          controller.enqueue(new Uint8Array(out.buffer, out.byteOffset, out.length));
        },
      },
      { highWaterMark: 0 },
    );
  };

  const lastModified = new Date('2026-11-02T10:20:30Z');
  let archive: ReadableStream<Uint8Array>;
  if (job.writer === 'ours') {
    const entries: ZipEntry[] = job.entries.map((spec) =>
      spec.size === undefined
        ? { name: spec.name, directory: true as const, lastModified }
        : { name: spec.name, size: spec.size, lastModified, open: () => generated(spec) },
    );
    archive = zipStream(entries);
  } else {
    // Entries are handed over lazily, as ours opens them when it reaches them.
    archive = makeZip(
      (function* () {
        for (const spec of job.entries)
          yield spec.size === undefined ? { name: spec.name, lastModified } : { name: spec.name, size: spec.size, lastModified, input: generated(spec) };
      })(),
    );
  }

  const started = performance.now();
  await archive.pipeTo(Writable.toWeb(createWriteStream(job.out)) as WritableStream<Uint8Array>);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sample);
  const bytes = job.out === '/dev/null' ? -1 : (await stat(job.out)).size;
  const result: Result = { seconds, bytes, peakRssBytes: Math.max(peak, process.resourceUsage().maxRSS * 1024), crcs };
  console.log(JSON.stringify(result));
}

// ——— Parent ———

async function child(job: Job, timeoutMs: number): Promise<Result> {
  const { code, line, stderr } = await runMeasurement(fileURLToPath(import.meta.url), job, timeoutMs);
  if (code !== 0) throw new Error(`${job.writer} exited ${code}: ${stderr}`);
  return JSON.parse(line) as Result;
}

const PYTHON_READ = `
import sys, zipfile, json
out = []
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        n = 0
        with z.open(info) as f:  # raises BadZipFile on a CRC mismatch at the end
            while True:
                b = f.read(1 << 22)
                if not b: break
                n += len(b)
        out.append({"name": info.filename, "size": info.file_size, "read": n, "crc": info.CRC, "offset": info.header_offset, "dir": info.is_dir(), "utf8": bool(info.flag_bits & 0x800)})
print(json.dumps(out))
`;

interface PyEntry {
  name: string;
  size: number;
  read: number;
  crc: number;
  offset: number;
  dir: boolean;
  utf8: boolean;
}

/** Python's zipfile and Info-ZIP's `unzip -t` on one archive, against what was generated. */
async function check(file: string, entries: Spec[], crcs: Record<string, number>): Promise<Record<string, unknown>> {
  const problems: string[] = [];
  let pyEntries: PyEntry[] = [];
  let started = performance.now();
  try {
    const { stdout } = await exec('python3', ['-c', PYTHON_READ, file], { maxBuffer: 16 * MiB });
    pyEntries = JSON.parse(stdout) as PyEntry[];
  } catch (error) {
    problems.push(`python: ${(error as Error).message.split('\n').slice(-3).join(' ')}`);
  }
  const pythonSeconds = (performance.now() - started) / 1000;
  if (pyEntries.length) {
    for (const spec of entries) {
      const found = pyEntries.find((e) => e.name === spec.name);
      if (!found) problems.push(`python: no entry named ${spec.name}`);
      else if (spec.size === undefined ? !found.dir : found.size !== spec.size || found.read !== spec.size || found.crc !== crcs[spec.name])
        problems.push(`python: ${spec.name} is ${JSON.stringify(found)}`);
      else if (!found.utf8 && /[^\x20-\x7e]/.test(spec.name)) problems.push(`python: ${spec.name} not flagged UTF-8`);
    }
    if (pyEntries.length !== entries.length) problems.push(`python: ${pyEntries.length} entries instead of ${entries.length}`);
  }
  started = performance.now();
  try {
    const { stdout } = await exec('unzip', ['-t', file], { maxBuffer: 16 * MiB });
    if (!/No errors detected/.test(stdout)) problems.push(`unzip -t: ${stdout.slice(-300)}`);
  } catch (error) {
    problems.push(`unzip -t: ${(error as Error).message.slice(-300)}`);
  }
  const unzipSeconds = (performance.now() - started) / 1000;
  return {
    ok: problems.length === 0,
    ...(problems.length > 0 && { problems }),
    maxOffsetMiB: pyEntries.length ? mb(Math.max(...pyEntries.map((e) => e.offset))) : null,
    pythonSeconds: round(pythonSeconds, 1),
    unzipSeconds: round(unzipSeconds, 1),
  };
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! };
};
const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function benchZipClientZip(): Promise<Record<string, unknown>> {
  const work = await mkdtemp(join(tmpdir(), 'cutdesk-bench-zip-cz-'));
  const started = performance.now();
  try {
    const throughput: Record<string, unknown> = {};
    for (const gib of SETS_GIB) {
      const entries = setEntries(gib * GiB);
      const runs: Record<Writer, Result[]> = { ours: [], 'client-zip': [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        // Alternate which goes first, so neither always meets the same moment of the machine.
        for (const writer of round % 2 ? [...WRITERS].reverse() : WRITERS) runs[writer].push(await child({ writer, out: '/dev/null', entries }, 20 * 60_000));
      }
      const mbps = (writer: Writer) => runs[writer].map((r) => (gib * 1024) / r.seconds);
      const rss = (writer: Writer) => runs[writer].map((r) => mb(r.peakRssBytes));
      const perRoundRatio = runs.ours.map((r, i) => r.seconds / runs['client-zip'][i]!.seconds);
      throughput[`${gib}GiB`] = {
        entries: entries.length,
        MBps: Object.fromEntries(WRITERS.map((w) => [w, Object.fromEntries(Object.entries(stats(mbps(w))).map(([k, v]) => [k, round(v)]))])),
        peakRssMiB: Object.fromEntries(WRITERS.map((w) => [w, stats(rss(w))])),
        /** client-zip's MB/s over ours, per round (>1: client-zip faster). */
        speedRatioClientZipOverOurs: Object.fromEntries(Object.entries(stats(perRoundRatio)).map(([k, v]) => [k, round(v, 2)])),
      };
    }

    const correctness: Record<string, unknown> = {};
    const cases: [string, Spec[]][] = [['1GiB-utf8', setEntries(GiB)]];
    if (BIG) cases.push(['4GiB-entry-and-offset', BIG_ENTRIES]);
    for (const [label, entries] of cases) {
      const need = entries.reduce((sum, e) => sum + (e.size ?? 0), 0) + 64 * MiB;
      const fs = await statfs(work);
      if (fs.bavail * fs.bsize < 2 * need) throw new Error(`not enough room in ${work} for ${label}`);
      for (const writer of WRITERS) {
        const out = join(work, `${writer}-${label}.zip`);
        const written = await child({ writer, out, entries }, 20 * 60_000);
        correctness[`${writer} ${label}`] = {
          archiveMiB: mb(written.bytes),
          writeSeconds: round(written.seconds, 1),
          ...(await check(out, entries, written.crcs)),
        };
        await rm(out, { force: true });
      }
    }
    return { throughput, correctness, totalSeconds: Math.round((performance.now() - started) / 1000) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2]) await runChild(JSON.parse(process.argv[2]) as Job);
  else console.log(JSON.stringify(await benchZipClientZip(), null, 2));
}
