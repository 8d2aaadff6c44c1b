/**
 * Child process: the baseline — one plain single-stream PutObject of the whole file with the
 * AWS SDK (file stream as body, known length, no checksum), the simplest way to put a file
 * in S3. Prints one JSON line: seconds, bytes, peak RSS.
 */
import { createReadStream } from 'node:fs';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

interface Job {
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
await client.send(new PutObjectCommand({ Bucket: job.bucket, Key: job.key, Body: createReadStream(job.file), ContentLength: job.size, ContentType: 'video/mp4' }));
const seconds = (performance.now() - started) / 1000;
clearInterval(sample);
client.destroy();
console.log(JSON.stringify({ seconds, bytes: job.size, peakRssBytes: Math.max(peak, process.resourceUsage().maxRSS * 1024) }));
