/**
 * bench/upload (issue 4): 1 GiB through the browser's upload path (the upload engine of the
 * upload worker, in a worker thread: 20 MiB parts, 6 in flight, IndexedDB as parts finish,
 * registration) against the real server and its embedded store, beside the AWS SDK doing the
 * same work (lib-storage: 20 MiB parts, 6 at once, CompleteMultipartUpload; the baseline of the
 * ratio) and a plain single-stream PutObject of the same file in the same run; then the same upload interrupted at 50 %
 * and resumed by a new engine. Figures: MB/s of both and their ratio, peak memory of each
 * client process and of the server, bytes sent again after the interruption.
 * Every measured client is a child process of its own; the server is one too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PART_SIZE, PARALLEL_PARTS } from '../src/domain/uploads.ts';
import { freePort } from './free-port.ts';

const MiB = 1024 ** 2;
const MP4_FTYP = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
const SIZE = Math.round(Number(process.env.BENCH_UPLOAD_GIB ?? 1) * 1024 ** 3);
const PASSWORD = 'bench-password';
const root = fileURLToPath(new URL('..', import.meta.url));

async function makeFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += 8 * MiB) {
    const block = randomBytes(Math.min(8 * MiB, size - written));
    // The server registers a clip only when its bytes are a video container (issue 9): an MP4 `ftyp` box first.
    if (written === 0) MP4_FTYP.copy(block, 0);
    hash.update(block);
    if (!out.write(block)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return hash.digest('hex');
}

function child(script: string, arg: unknown, timeoutMs: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), JSON.stringify(arg)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: root,
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-3000)));
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`${script} failed (${code}): ${stderr || stdout}`));
      else resolve(JSON.parse(line) as Record<string, unknown>);
    });
  });
}

/** The server's resident memory, sampled while `work` runs (Linux /proc). */
async function serverPeakDuring<T>(server: ChildProcess, work: () => Promise<T>): Promise<{ result: T; peakRssBytes: number }> {
  let peak = 0;
  const read = async () => {
    const status = await readFile(`/proc/${server.pid}/status`, 'utf8').catch(() => '');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peak = Math.max(peak, kb * 1024);
  };
  const timer = setInterval(() => void read(), 100);
  try {
    const result = await work();
    await read();
    return { result, peakRssBytes: peak };
  } finally {
    clearInterval(timer);
  }
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, [join(root, 'server/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR: join(dataDir, 'no-web'),
      DEMO_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      SEED: 'demo',
    },
  });
  let output = '';
  server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 300; i += 1) {
    const healthy = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return server;
    if (server.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill();
  throw new Error(`the server did not start:\n${output}`);
}

async function sha256Url(url: string): Promise<string> {
  const response = await fetch(url);
  const hash = createHash('sha256');
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
  }
  return hash.digest('hex');
}

const mib = (bytes: number) => Math.round(bytes / MiB);
const rate = (bytes: number, seconds: number) => Math.round((bytes / MiB / seconds) * 10) / 10;

export async function benchUpload(): Promise<Record<string, unknown>> {
  // Under the repository's .tmp (data dirs of benchmarks stay there), on a fixed port unless BENCH_PORT says otherwise.
  await mkdir(join(root, '.tmp'), { recursive: true });
  const work = await mkdtemp(join(root, '.tmp', 'upload-bench-node-'));
  const dataDir = join(work, 'data');
  const file = join(work, 'clip.bin');
  let server: ChildProcess | null = null;
  try {
    const sourceSha = await makeFile(file, SIZE);
    const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
    server = await startServer(dataDir, port);
    const base = `http://127.0.0.1:${port}`;
    const login = (await (
      await fetch(`${base}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@demo.cutdesk.test', password: PASSWORD }),
      })
    ).json()) as { token: string; organizationId: number };
    const me = (await (await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${login.token}` } })).json()) as { id: number };
    const project = async (name: string) =>
      (
        (await (
          await fetch(`${base}/api/v1/organizations/${login.organizationId}/projects`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
            body: JSON.stringify({ name, audience: 'Bench', goal: 'Bench', finalVideoLength: '1-2 minutes', brief: 'Upload bench.' }),
          })
        ).json()) as { id: number }
      ).id;
    const keys = JSON.parse(await readFile(join(dataDir, 's3-credentials.json'), 'utf8')) as { accessKeyId: string; secretAccessKey: string };
    const storeJob = { file, size: SIZE, endpoint: `${base}/s3`, region: 'us-east-1', bucket: 'cutdesk-media', key: 'bench/baseline.bin', ...keys };
    const workerJob = (mode: 'full' | 'interrupt', projectId: number) => ({
      mode,
      file,
      size: SIZE,
      baseUrl: base,
      token: login.token,
      userId: me.id,
      organizationId: login.organizationId,
      projectId,
    });

    // Warm-up: both paths once on a small file, so neither pays for first-use costs.
    const small = join(work, 'warm.bin');
    await makeFile(small, 64 * MiB);
    await child('./upload/sdk-baseline.ts', { ...storeJob, mode: 'multipart', file: small, size: 64 * MiB, key: 'bench/warm.bin' }, 120_000);
    await child('./upload/sdk-baseline.ts', { ...storeJob, mode: 'single', file: small, size: 64 * MiB, key: 'bench/warm-single.bin' }, 120_000);
    await child('./upload/worker-path.ts', { ...workerJob('full', await project('Warm-up')), file: small, size: 64 * MiB }, 120_000);

    const fullProject = await project('Bench full');
    const interruptedProject = await project('Bench interrupted');
    // The baseline does the worker path's work: 20 MiB parts 6 at a time and the join (CompleteMultipartUpload).
    const sdk = await serverPeakDuring(server, () => child('./upload/sdk-baseline.ts', { ...storeJob, mode: 'multipart' }, 30 * 60_000));
    const single = await serverPeakDuring(server, () =>
      child('./upload/sdk-baseline.ts', { ...storeJob, mode: 'single', key: 'bench/single.bin' }, 30 * 60_000),
    );
    const engine = await serverPeakDuring(server, () => child('./upload/worker-path.ts', workerJob('full', fullProject), 30 * 60_000));
    const interrupted = await serverPeakDuring(server, () => child('./upload/worker-path.ts', workerJob('interrupt', interruptedProject), 30 * 60_000));

    // Both objects are the source, byte for byte.
    const presign = async (projectId: number) => {
      const assets = (await (await fetch(`${base}/api/v1/projects/${projectId}/assets`, { headers: { authorization: `Bearer ${login.token}` } })).json()) as {
        url: string;
      }[];
      return assets[0]!.url;
    };
    const engineSha = await sha256Url(await presign(fullProject));
    const resumedSha = await sha256Url(await presign(interruptedProject));
    const s3 = new S3Client({
      endpoint: storeJob.endpoint,
      region: storeJob.region,
      forcePathStyle: true,
      credentials: keys,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const baselineObject = await s3.send(new GetObjectCommand({ Bucket: storeJob.bucket, Key: storeJob.key }));
    const baselineHash = createHash('sha256');
    for await (const chunk of baselineObject.Body as AsyncIterable<Uint8Array>) baselineHash.update(chunk);
    const baselineSha = baselineHash.digest('hex');
    s3.destroy();

    const sdkSeconds = sdk.result.seconds as number;
    const engineSeconds = engine.result.seconds as number;
    const firstRun = interrupted.result.firstRun as { putBytes: number; partsStored: number; partsInFlight: number; loadedAtInterruption: number };
    const resent = (interrupted.result.putBytes as number) - SIZE;
    return {
      file: `${mib(SIZE)} MiB of random bytes, on local disk; server and clients on one 2-core machine over loopback`,
      sdkMultipart: {
        seconds: Math.round(sdkSeconds * 10) / 10,
        mbPerSecond: rate(SIZE, sdkSeconds),
        clientPeakRssMiB: mib(sdk.result.peakRssBytes as number),
        serverPeakRssMiB: mib(sdk.peakRssBytes),
        sha256MatchesSource: baselineSha === sourceSha,
      },
      sdkSingleStreamPut: {
        seconds: Math.round((single.result.seconds as number) * 10) / 10,
        mbPerSecond: rate(SIZE, single.result.seconds as number),
        clientPeakRssMiB: mib(single.result.peakRssBytes as number),
      },
      workerPath: {
        seconds: Math.round(engineSeconds * 10) / 10,
        mbPerSecond: rate(SIZE, engineSeconds),
        secondsUntilAllBytesSent: Math.round((engine.result.allBytesSentSeconds as number) * 10) / 10,
        partPuts: engine.result.partPuts,
        clientPeakRssMiB: mib(engine.result.peakRssBytes as number),
        serverPeakRssMiB: mib(engine.peakRssBytes),
        sha256MatchesSource: engineSha === sourceSha,
      },
      /** Same work (parts, join): SDK multipart time ÷ worker path time, above 1 the worker path is faster. */
      ratioWorkerToSdk: Math.round((sdkSeconds / engineSeconds) * 100) / 100,
      ratioWorkerToSingleStreamPut: Math.round(((single.result.seconds as number) / engineSeconds) * 100) / 100,
      interruptedAt50Percent: {
        loadedAtInterruptionMiB: mib(firstRun.loadedAtInterruption),
        partsStoredBefore: firstRun.partsStored,
        partsInFlightLost: firstRun.partsInFlight,
        bytesResentMiB: Math.round((resent / MiB) * 10) / 10,
        bytesResent: resent,
        targetAtMostInFlightMiB: mib(PARALLEL_PARTS * PART_SIZE),
        totalSeconds: Math.round((interrupted.result.seconds as number) * 10) / 10,
        clientPeakRssMiB: mib(interrupted.result.peakRssBytes as number),
        sha256MatchesSource: resumedSha === sourceSha,
      },
      sourceSha256: sourceSha,
    };
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchUpload(), null, 2));
