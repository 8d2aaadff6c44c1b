/**
 * A server for bench/store-ingest, in a process of its own so its CPU is its own: `store` is the
 * embedded S3 store as the product mounts it (Fastify, the /s3 plugin, V8's flags of
 * server/gc-flags.ts); `bare` is the least a Node server can do with an upload, the baseline: an
 * HTTP body streamed to a file. Prints `{"port":…}` once listening.
 */
import '../../server/gc-flags.ts';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';
import { embeddedS3Plugin } from '../../server/storage/embedded-s3/index.ts';
import { BUCKET, KEYS } from './store-keys.ts';

const { kind, dir } = JSON.parse(process.argv[2] ?? '{}') as { kind: 'store' | 'bare'; dir: string };

if (kind === 'bare') {
  const server = createServer((request, response) => {
    // One file per part number, written again each round (the parent empties the directory between rounds).
    const path = join(dir, encodeURIComponent(request.url ?? 'body'));
    pipeline(request, createWriteStream(path)).then(
      () => response.end(),
      () => response.writeHead(500).end(),
    );
  });
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as { port: number }).port })));
} else {
  const app = Fastify({ logger: false });
  await app.register(embeddedS3Plugin, {
    prefix: '/s3',
    root: dir,
    bucket: BUCKET,
    region: 'us-east-1',
    credentials: { lookup: async (id) => (id === KEYS.accessKeyId ? { secretAccessKey: KEYS.secretAccessKey } : null) },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port }));
}
