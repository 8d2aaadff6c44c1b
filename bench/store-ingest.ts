/**
 * bench/store-ingest (issue 34, "a store that costs less than the browser"): the CPU the embedded
 * S3 store spends per GiB it receives, against a bare Node server that streams the same HTTP
 * bodies to files, in the same run. Each round uploads BENCH_INGEST_GIB (default 1) GiB to each
 * server, in the order store, bare, then bare, store the next round, as the page does: 20 MiB
 * parts, 4 in flight, PUT to presigned UploadPart URLs (UNSIGNED-PAYLOAD, no checksum header:
 * what workers/s3-client.ts sends), then CompleteMultipartUpload. Each server runs in a process
 * of its own (bench/store-ingest/server.ts); its CPU is read from /proc before and after (every
 * thread, and the main thread alone). The client is this process.
 * Min / median / max over BENCH_ROUNDS (default 3) rounds; the ratio is taken per round.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, DeleteObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { spread } from './stats.ts';
import { BUCKET, KEYS } from './store-ingest/store-keys.ts';

const MiB = 1024 * 1024;
const PART = 20 * MiB;
const IN_FLIGHT = 4;
const GIB = Number(process.env.BENCH_INGEST_GIB ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SERVER = fileURLToPath(new URL('./store-ingest/server.ts', import.meta.url));

type Kind = 'store' | 'bare';

interface Started {
  child: ChildProcess;
  port: number;
}

async function start(kind: Kind, dir: string): Promise<Started> {
  const child = spawn(process.execPath, [SERVER, JSON.stringify({ kind, dir })], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited ${code}`)));
  });
  return { child, port: (JSON.parse(line) as { port: number }).port };
}

/** CPU seconds of process `pid` so far: every thread, and its main thread alone (Linux /proc). */
async function cpuSeconds(pid: number): Promise<{ all: number; main: number }> {
  const read = async (path: string) => {
    const fields = (await readFile(path, 'utf8')).split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, USER_HZ 100
  };
  return { all: await read(`/proc/${pid}/stat`), main: await read(`/proc/${pid}/task/${pid}/stat`) };
}

/** PUTs `body` to `url`, resolving with the answer's ETag. */
function put(url: string, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'PUT', headers: { 'content-length': body.length } }, (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200 ? resolve(String(response.headers.etag ?? '')) : reject(new Error(`PUT answered ${response.statusCode}`)),
      );
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** Sends `parts` parts of `body` through `urlOf`, IN_FLIGHT at a time; the ETags in part order. */
async function sendParts(parts: number, body: Buffer, urlOf: (partNumber: number) => Promise<string>): Promise<string[]> {
  const etags: string[] = new Array(parts);
  let next = 1;
  const lane = async () => {
    while (next <= parts) {
      const partNumber = next++;
      etags[partNumber - 1] = await put(await urlOf(partNumber), body);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return etags;
}

interface Measured {
  cpuPerGiB: number;
  mainPerGiB: number;
  mbPerSecond: number;
}

async function upload(kind: Kind, server: Started, body: Buffer, parts: number, round: number): Promise<Measured> {
  const base = `http://127.0.0.1:${server.port}`;
  const client = new S3Client({ endpoint: `${base}/s3`, region: 'us-east-1', forcePathStyle: true, credentials: KEYS });
  const key = `round-${round}.bin`;
  const before = await cpuSeconds(server.child.pid!);
  const started = performance.now();
  if (kind === 'store') {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
    const etags = await sendParts(parts, body, (PartNumber) =>
      getSignedUrl(client, new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber }), { expiresIn: 3600 }),
    );
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId,
        MultipartUpload: { Parts: etags.map((ETag, index) => ({ ETag, PartNumber: index + 1 })) },
      }),
    );
  } else {
    await sendParts(parts, body, async (partNumber) => `${base}/${key}/part-${partNumber}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await cpuSeconds(server.child.pid!);
  client.destroy();
  const gib = (parts * body.length) / (1024 * MiB);
  return { cpuPerGiB: (after.all - before.all) / gib, mainPerGiB: (after.main - before.main) / gib, mbPerSecond: (parts * body.length) / 1e6 / seconds };
}

async function deleteObject(server: Started, key: string): Promise<void> {
  const client = new S3Client({ endpoint: `http://127.0.0.1:${server.port}/s3`, region: 'us-east-1', forcePathStyle: true, credentials: KEYS });
  await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
  client.destroy();
}

export async function benchStoreIngest(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'cutdesk-bench-ingest-'));
  const dirs = { store: join(root, 'store'), bare: join(root, 'bare') };
  const servers = { store: await start('store', dirs.store), bare: await start('bare', dirs.bare) };
  try {
    await mkdir(dirs.bare, { recursive: true });
    const body = randomBytes(PART);
    const parts = Math.round((GIB * 1024) / 20);
    // Warm-up: each server's code compiled and its first collections done before anything counts.
    for (const kind of ['store', 'bare'] as const) await upload(kind, servers[kind], body, 4, -1);
    await deleteObject(servers.store, 'round--1.bin');
    const runs: Record<Kind, Measured[]> = { store: [], bare: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order: Kind[] = round % 2 === 0 ? ['store', 'bare'] : ['bare', 'store'];
      for (const kind of order) runs[kind].push(await upload(kind, servers[kind], body, parts, round));
      // The store's object is deleted through its API; the bare server's files are written again next round.
      await deleteObject(servers.store, `round-${round}.bin`);
    }
    const figures = (kind: Kind) => ({
      'CPU s per GiB, every thread (min / median / max)': spread(runs[kind].map((run) => run.cpuPerGiB)).join(' / '),
      'CPU s per GiB, main thread': spread(runs[kind].map((run) => run.mainPerGiB)).join(' / '),
      'MB/s': spread(runs[kind].map((run) => run.mbPerSecond)).join(' / '),
    });
    return {
      GiB: GIB,
      rounds: ROUNDS,
      'embedded store': figures('store'),
      'bare Node server (HTTP body to a file)': figures('bare'),
      'store ÷ bare, CPU per GiB, per round': spread(runs.store.map((run, index) => run.cpuPerGiB / runs.bare[index]!.cpuPerGiB)).join(' / '),
    };
  } finally {
    servers.store.child.kill();
    servers.bare.child.kill();
    await rm(root, { recursive: true, force: true });
  }
}
