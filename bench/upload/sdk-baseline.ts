/**
 * Child process: the baselines, with the AWS SDK and the store's own key pair.
 * - `multipart` (the ratio's baseline): `@aws-sdk/lib-storage` with the worker's part size and
 *   parallelism (20 MiB, 6 at once): CreateMultipartUpload, the parts, CompleteMultipartUpload —
 *   the same work as the worker path's transfer and join (issue 14: the single PUT below skips the
 *   join, so it flattered the baseline).
 * - `single`: one plain single-stream PutObject of the whole file, the simplest way to put a file.
 * Prints one JSON line: seconds, bytes, peak RSS.
 */
import { createReadStream } from 'node:fs';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PART_SIZE, PARALLEL_PARTS } from '../../src/domain/uploads.ts';

interface Job {
  mode: 'multipart' | 'single';
  file: string;
  size: number;
  endpoint: string;
  region: string;
  bucket: string;
  key: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const job = JSON.parse(process.argv[2]!) as Job;
const client = new S3Client({
  endpoint: job.endpoint,
  region: job.region,
  forcePathStyle: true,
  credentials: { accessKeyId: job.accessKeyId, secretAccessKey: job.secretAccessKey },
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});
let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const started = performance.now();
if (job.mode === 'single') {
  await client.send(
    new PutObjectCommand({ Bucket: job.bucket, Key: job.key, Body: createReadStream(job.file), ContentLength: job.size, ContentType: 'video/mp4' }),
  );
} else {
  await new Upload({
    client,
    params: { Bucket: job.bucket, Key: job.key, Body: createReadStream(job.file), ContentType: 'video/mp4' },
    partSize: PART_SIZE,
    queueSize: PARALLEL_PARTS,
  }).done();
}
const seconds = (performance.now() - started) / 1000;
clearInterval(sample);
client.destroy();
console.log(JSON.stringify({ seconds, bytes: job.size, peakRssBytes: Math.max(peak, process.resourceUsage().maxRSS * 1024) }));
