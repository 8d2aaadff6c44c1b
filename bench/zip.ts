/**
 * bench/zip (issue 6): zip 3 GiB of generated clips through the worker path (the zip writer
 * the browser's media worker runs, fetching each clip from a presigned URL of the embedded
 * store and streaming the archive to a file), and, in the same run, JSZip's in-memory
 * generation of growing sets until it fails. Figures: MB/s and peak memory of each; the
 * largest set JSZip survives. Each measured run is a child process of its own, so its peak
 * RSS is its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedClip, startStore } from './zip/store.ts';
import { runChild } from './child-process.ts';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const TOTAL = Number(process.env.BENCH_ZIP_GIB ?? 3) * GiB;
const CLIP = 256 * MiB;
/** JSZip's sets grow past the 3 GiB and past 4 GiB, where a zip needs Zip64. */
const JSZIP_SETS_MIB = [256, 512, 1024, 2048, 3072, 4608].map((mib) => Math.round((mib * TOTAL) / (3 * GiB)));
const STORED = Math.max(TOTAL, JSZIP_SETS_MIB.at(-1)! * MiB);

const child = (script: string, arg: unknown, timeoutMs: number) => runChild(fileURLToPath(new URL(script, import.meta.url)), arg, timeoutMs);

const mb = (bytes: number) => Math.round(bytes / MiB);

export async function benchZip(): Promise<Record<string, unknown>> {
  const { store, close } = await startStore();
  const work = await mkdtemp(join(tmpdir(), 'cutdesk-bench-zip-'));
  try {
    const clips: { name: string; key: string; size: number }[] = [];
    const folders = ['interviews', 'b_roll'];
    for (let i = 0, left = STORED; left > 0; i += 1) {
      const size = Math.min(CLIP, left);
      const name = `${folders[i % 2]}/clip-${String(i).padStart(2, '0')}.mp4`;
      await store.putObject(`bench/${name}`, generatedClip(size, i + 1), 'video/mp4');
      clips.push({ name, key: `bench/${name}`, size });
      left -= size;
    }
    const urls = await Promise.all(clips.map((clip) => store.presignGet(clip.key, 3600)));

    // The worker path zips the first TOTAL bytes of clips (3 GiB by default).
    let budget = TOTAL;
    const ourClips = clips.filter((clip) => (budget -= clip.size) >= 0);
    const entries = [
      { name: 'assets/' },
      { name: 'interviews/' },
      { name: 'b_roll/' },
      ...ourClips.map((clip, i) => ({ name: clip.name, size: clip.size, url: urls[i] })),
    ];
    const streamed = await child('./zip/worker-path.ts', { out: join(work, 'streamed.zip'), entries }, 30 * 60_000);
    if (streamed.code !== 0) throw new Error(`worker path failed: ${streamed.stderr}`);
    const ours = JSON.parse(streamed.line) as { seconds: number; bytes: number; peakRssBytes: number };
    await rm(join(work, 'streamed.zip'), { force: true });

    const baseline: Record<string, unknown>[] = [];
    let largest: { setMiB: number; seconds: number; peakRssBytes: number } | null = null;
    for (const setMiB of JSZIP_SETS_MIB) {
      let left = setMiB * MiB;
      const set = [];
      for (let i = 0; left > 0; i += 1) {
        set.push({ name: clips[i]!.name, url: urls[i]! });
        left -= clips[i]!.size;
      }
      const run = await child('./zip/jszip-memory.ts', { entries: set }, 10 * 60_000);
      const result = run.line
        ? (JSON.parse(run.line) as { ok: boolean; seconds?: number; bytes?: number; peakRssBytes: number; error?: string })
        : { ok: false, error: `killed (exit ${run.code}): ${run.stderr.split('\n').filter(Boolean).slice(-2).join(' ')}`, peakRssBytes: 0 };
      baseline.push({
        setMiB,
        ok: result.ok,
        ...(result.seconds !== undefined && { MBps: Math.round(setMiB / result.seconds), seconds: Math.round(result.seconds * 10) / 10 }),
        ...(!result.ok && { error: result.error }),
        peakRssMiB: mb(result.peakRssBytes),
      });
      if (!result.ok) break;
      largest = { setMiB, seconds: result.seconds!, peakRssBytes: result.peakRssBytes };
    }

    return {
      workerPath: {
        totalMiB: mb(TOTAL),
        clips: ourClips.length,
        archiveMiB: mb(ours.bytes),
        seconds: Math.round(ours.seconds * 10) / 10,
        MBps: Math.round(mb(TOTAL) / ours.seconds),
        peakRssMiB: mb(ours.peakRssBytes),
      },
      jszipInMemory: baseline,
      jszipLargestSurvivedMiB: largest?.setMiB ?? 0,
      comparison: largest
        ? {
            speedRatio: Math.round((mb(TOTAL) / ours.seconds / (largest.setMiB / largest.seconds)) * 100) / 100,
            memoryPerGiB: {
              workerPathMiB: Math.round(mb(ours.peakRssBytes) / (TOTAL / GiB)),
              jszipMiB: Math.round(mb(largest.peakRssBytes) / (largest.setMiB / 1024)),
            },
          }
        : null,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchZip(), null, 2));
}
