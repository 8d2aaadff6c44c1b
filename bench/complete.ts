/**
 * bench/complete (issue 14, "zero-copy completion in the embedded store"): how long the embedded
 * store's CompleteMultipartUpload takes for 1 GiB and 3 GiB of 20 MiB parts.
 *
 * Two figures per size, in the same run on the same parts:
 * - the storage step alone, both ways: streaming every part into one new file (what Complete
 *   did before, `assemble`, kept as the fallback for file systems without hard links) against
 *   linking the parts as the object's segments (`linkParts`), each followed by the commit;
 * - the whole CompleteMultipartUpload call over HTTP through the AWS SDK, as a client sees it.
 * Parts are written to disk directly (the upload path is measured by bench/upload), so the
 * figure is Complete's own. Min / median / max of BENCH_COMPLETE_RUNS (default 3) runs.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import Fastify from 'fastify';
import { embeddedS3Plugin } from '../server/storage/embedded-s3/index.ts';
import { openMultipartFiles, type PartRecord } from '../server/storage/embedded-s3/multipart.ts';
import { openObjectFiles } from '../server/storage/embedded-s3/object-files.ts';

const MiB = 1024 * 1024;
const PART = 20 * MiB;
const SIZES_GIB = (process.env.BENCH_COMPLETE_GIB ?? '1,3').split(',').map(Number);
const RUNS = Number(process.env.BENCH_COMPLETE_RUNS ?? 3);
const BUCKET = 'bench';
const KEYS = { accessKeyId: 'AKIABENCHCOMPLETE', secretAccessKey: 'bench-complete-secret' };

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
  return {
    min: fmt(sorted[0]!),
    median: fmt(sorted[Math.floor(sorted.length / 2)]!),
    max: fmt(sorted.at(-1)!),
    medianMs: sorted[Math.floor(sorted.length / 2)]!,
  };
};

export async function benchComplete(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'cutdesk-bench-complete-'));
  const app = Fastify({ logger: false });
  await app.register(embeddedS3Plugin, {
    prefix: '/s3',
    root,
    bucket: BUCKET,
    region: 'us-east-1',
    credentials: { lookup: async (id) => (id === KEYS.accessKeyId ? { secretAccessKey: KEYS.secretAccessKey } : null) },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}/s3`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: KEYS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  // The plugin's own directories, opened a second time to write parts and time the storage step.
  const tmp = join(root, '.tmp');
  const uploads = await openMultipartFiles(join(root, BUCKET, 'uploads'), tmp);
  const objects = await openObjectFiles(join(root, BUCKET, 'objects'), tmp);
  const chunk = randomBytes(PART);
  const results: Record<string, unknown> = { part: '20 MiB', runs: RUNS };
  try {
    for (const gib of SIZES_GIB) {
      const count = Math.round((gib * 1024 * MiB) / PART);
      /** A fresh upload of `count` parts, made through the API and filled on disk. */
      const upload = async (key: string) => {
        const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key, ContentType: 'video/mp4' }));
        const parts: PartRecord[] = [];
        for (let number = 1; number <= count; number++) {
          const temp = join(tmp, `bench-part-${number}`);
          await writeFile(temp, chunk);
          parts.push(
            await uploads.putPart(UploadId!, number, temp, {
              etag: `"${number.toString(16).padStart(32, '0')}"`,
              size: PART,
              lastModified: new Date().toISOString(),
            }),
          );
        }
        return { uploadId: UploadId!, parts };
      };
      const copy: number[] = [];
      const link: number[] = [];
      const http: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const key = `bench/${gib}gib-${run}.mp4`;
        const { uploadId, parts } = await upload(key);
        for (const [label, times] of [
          ['copy', copy],
          ['link', link],
        ] as const) {
          const temp = join(tmp, `bench-object-${label}`);
          const started = performance.now();
          const linked = label === 'link' && (await uploads.linkParts(uploadId, parts, temp));
          if (!linked) await uploads.assemble(uploadId, parts, temp);
          await objects.commit(`bench/${label}.mp4`, temp, {
            size: count * PART,
            etag: '"bench"',
            lastModified: new Date().toISOString(),
            contentType: 'video/mp4',
            headers: {},
            userMetadata: {},
            partsCount: count,
            ...(linked && { segments: parts.map((part) => part.size) }),
          });
          times.push(performance.now() - started);
          await objects.remove(`bench/${label}.mp4`);
        }
        const started = performance.now();
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket: BUCKET,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
          }),
        );
        http.push(performance.now() - started);
        await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
      }
      const copied = spread(copy);
      const linked = spread(link);
      const answered = spread(http);
      results[`${gib} GiB (${count} parts)`] = {
        'storage step, copy (before)': { min: copied.min, median: copied.median, max: copied.max },
        'storage step, link (now)': { min: linked.min, median: linked.median, max: linked.max },
        'speed ratio copy / link (median)': (copied.medianMs / Math.max(linked.medianMs, 0.001)).toFixed(0),
        'CompleteMultipartUpload over HTTP (now)': { min: answered.min, median: answered.median, max: answered.max },
        'goal ≤ 0.5 s at 3 GiB': gib === 3 ? (answered.medianMs <= 500 ? 'met' : 'NOT met') : undefined,
      };
    }
    return results;
  } finally {
    client.destroy();
    await app.close();
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(JSON.stringify(await benchComplete(), null, 2));
