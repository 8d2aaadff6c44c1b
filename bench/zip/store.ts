import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { embeddedS3Plugin } from '../../server/storage/embedded-s3/index.ts';
import { createObjectStore, type ObjectStore } from '../../server/storage/object-store.ts';

const KEY = { accessKeyId: 'AKIABENCHZIP', secretAccessKey: 'bench-zip-secret' };

/** The embedded S3 store on loopback, in this process, with a client for it. */
export async function startStore(): Promise<{ endpoint: string; store: ObjectStore; close(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'cutdesk-bench-zip-s3-'));
  const app = Fastify({ logger: false });
  await app.register(embeddedS3Plugin, {
    prefix: '/s3',
    root,
    bucket: 'bench',
    region: 'us-east-1',
    credentials: { lookup: async (id) => (id === KEY.accessKeyId ? { secretAccessKey: KEY.secretAccessKey } : null) },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/s3`;
  const store = createObjectStore({ endpoint, region: 'us-east-1', bucket: 'bench', ...KEY, forcePathStyle: true });
  await store.ensureBucket();
  return {
    endpoint,
    store,
    async close() {
      store.destroy();
      await app.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * `size` bytes that look like compressed video (no two 1 MiB blocks alike, incompressible):
 * an xorshift stream, generated as it is read.
 */
export function generatedClip(size: number, seed: number, head?: Buffer): Readable {
  let left = size;
  let state = (seed * 2654435761) >>> 0 || 1;
  const block = 1024 * 1024;
  let first = true;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(block, left);
      const out = Buffer.allocUnsafe(n);
      for (let i = 0; i + 4 <= n; i += 4) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        out.writeUInt32LE(state >>> 0, i);
      }
      for (let i = n - (n % 4); i < n; i += 1) out[i] = i & 0xff;
      // A file signature first where the reader sniffs the type (the server registers videos only).
      if (first && head) head.copy(out, 0, 0, Math.min(head.length, n));
      first = false;
      left -= n;
      this.push(out);
    },
  });
}
