import { join } from 'node:path';
import Fastify from 'fastify';
import type { Config } from '../../config.ts';
import { embeddedS3Plugin } from '../../storage/embedded-s3/index.ts';
import { clientOf, copyObject, listObjects, type BucketAccess } from './object-copy.ts';
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
}

/**
 * Every object of the embedded store into another bucket (issue 15, `npm run move-data`). The
 * store is served on loopback for the move by the same code the server serves it with (the
 * server is not running: the data directory is locked), so it is read as any S3 is.
 */
export async function moveObjects(config: Config, to: BucketAccess, progress: (line: string) => void): Promise<ObjectsReport> {
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
  const source = { client: clientOf({ endpoint, region: storage.region, bucket: storage.bucket, accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey, forcePathStyle: true }), bucket: storage.bucket };
  const target = { client: clientOf(to), bucket: to.bucket };
  try {
    const objects = [];
    for await (const object of listObjects(source.client, source.bucket)) objects.push(object);
    const report: ObjectsReport = { source: { count: objects.length, bytes: objects.reduce((sum, o) => sum + o.size, 0) }, verified: { count: 0, bytes: 0 }, skipped: 0, mismatches: [] };
    let sent = 0;
    const mib = (bytes: number) => (bytes / 1048576).toFixed(1);
    for (const object of objects) {
      const outcome = await copyObject(source, target, object, (bytes) => {
        sent += bytes;
        progress(`bytes ${progressBar(sent, report.source.bytes)} ${mib(sent)}/${mib(report.source.bytes)} MiB ${object.key}`);
      });
      if (outcome === 'mismatch') report.mismatches.push(object.key);
      else {
        report.verified.count += 1;
        report.verified.bytes += object.size;
        if (outcome === 'skipped') report.skipped += 1;
      }
    }
    return report;
  } finally {
    source.client.destroy();
    target.client.destroy();
    await app.close();
  }
}
