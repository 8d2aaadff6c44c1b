import { join } from 'node:path';
import Fastify from 'fastify';
import type { Config } from '../../config.ts';
import { embeddedS3Plugin } from '../../storage/embedded-s3/index.ts';
import { MoveInterruptedError } from './interrupted.ts';
import { abortLeftUploads, clientOf, copyObject, listObjects, targetKind, type BucketAccess, type TargetKind } from './object-copy.ts';
import { progressBar } from './progress-bar.ts';

export interface ObjectsReport {
  /** What the embedded store holds. */
  source: { count: number; bytes: number };
  /** What arrived and was read back with the same SHA-256 (this run or an earlier one). */
  verified: { count: number; bytes: number };
  /** Already there from an earlier run, so not sent again. */
  skipped: number;
  /** Keys whose copy differs. */
  mismatches: string[];
  /** Keys whose unfinished multipart upload an earlier run left in the target, aborted by this one. */
  abortedEarlier: string[];
  /** Where the objects went, and what kind of store that is (it decides the settings a server there needs). */
  target: { endpoint: string | null; bucket: string; region: string; kind: TargetKind };
}

const mib = (bytes: number) => (bytes / 1048576).toFixed(1);

/**
 * Every object of the embedded store into another bucket (issue 15, `npm run move-data`). The
 * store is served on loopback for the move by the same code the server serves it with (the
 * server is not running: the data directory is locked), so it is read as any S3 is. Issue 32:
 * first the multipart uploads an earlier run left for these keys are aborted; `signal` stops the
 * copy with the object in flight (its upload aborted) and throws MoveInterruptedError.
 */
export async function moveObjects(config: Config, to: BucketAccess, progress: (line: string) => void, signal?: AbortSignal): Promise<ObjectsReport> {
  const { storage } = config;
  const app = Fastify();
  await app.register(embeddedS3Plugin, {
    prefix: '/s3',
    root: join(config.dataDir, 's3'),
    bucket: storage.bucket,
    region: storage.region,
    credentials: { lookup: async (id: string) => (id === storage.accessKeyId ? { secretAccessKey: storage.secretAccessKey } : null) },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/s3`;
  const source = {
    client: clientOf({
      endpoint,
      region: storage.region,
      bucket: storage.bucket,
      accessKeyId: storage.accessKeyId,
      secretAccessKey: storage.secretAccessKey,
      forcePathStyle: true,
    }),
    bucket: storage.bucket,
  };
  const target = { client: clientOf(to), bucket: to.bucket };
  try {
    const objects = [];
    for await (const object of listObjects(source.client, source.bucket)) objects.push(object);
    const abortedEarlier = await abortLeftUploads(target, new Set(objects.map((object) => object.key)));
    if (abortedEarlier.length)
      progress(`Aborted ${abortedEarlier.length} unfinished multipart upload${abortedEarlier.length > 1 ? 's' : ''} an earlier run left in ${to.bucket}.`);
    const report: ObjectsReport = {
      source: { count: objects.length, bytes: objects.reduce((sum, o) => sum + o.size, 0) },
      verified: { count: 0, bytes: 0 },
      skipped: 0,
      mismatches: [],
      abortedEarlier,
      target: { endpoint: to.endpoint ?? null, bucket: to.bucket, region: to.region, kind: 'unknown' },
    };
    let sent = 0;
    for (const object of objects) {
      const abortedNow: string[] = [];
      const interrupted = () =>
        new MoveInterruptedError(
          `copying the objects: ${report.verified.count} of ${objects.length} are in ${to.bucket} (${mib(report.verified.bytes)} of ${mib(report.source.bytes)} MiB), ${object.key} was on its way`,
          abortedNow,
          to.bucket,
        );
      if (signal?.aborted) throw interrupted();
      try {
        const outcome = await copyObject(source, target, object, {
          signal,
          onAbortedUpload: (key) => abortedNow.push(key),
          onBytes: (bytes) => {
            sent += bytes;
            progress(`bytes ${progressBar(sent, report.source.bytes)} ${mib(sent)}/${mib(report.source.bytes)} MiB ${object.key}`);
          },
        });
        if (outcome === 'mismatch') report.mismatches.push(object.key);
        else {
          report.verified.count += 1;
          report.verified.bytes += object.size;
          if (outcome === 'skipped') report.skipped += 1;
        }
      } catch (error) {
        if (!signal?.aborted) throw error;
        // An upload whose creation was answered after the interruption is not known by its id: found by its key.
        for (const key of await abortLeftUploads(target, new Set([object.key])).catch(() => [])) if (!abortedNow.includes(key)) abortedNow.push(key);
        throw interrupted();
      }
    }
    report.target.kind = await targetKind(target);
    return report;
  } finally {
    source.client.destroy();
    target.client.destroy();
    await app.close();
  }
}
