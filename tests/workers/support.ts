import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createServerApi, type ServerApi } from '../../workers/server-api.ts';
import { fetchTransport, TransportError, type Transport, type TransportRequest } from '../../workers/transport.ts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../server/harness.ts';
import { MP4_FTYP } from '../support/file-fixtures.ts';

/** A listening test server (API + embedded store) with the demo data, signed in as the owner. */
export interface UploadWorld {
  server: TestServer;
  token: string;
  userId: number;
  organizationId: number;
  api: ServerApi;
  createProject(name?: string): Promise<number>;
  sha256Of(key: string): Promise<string | null>;
  close(): Promise<void>;
}

export async function startUploadWorld(): Promise<UploadWorld> {
  const server = await startTestServer(null, { storage: true });
  const base = `${server.baseUrl}/api/v1`;
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@demo.cutdesk.test', password: DEMO_PASSWORD }),
  });
  const { token, organizationId } = (await login.json()) as { token: string; organizationId: number };
  const owner = await server.db.selectFrom('users').select('id').where('email', '=', 'owner@demo.cutdesk.test').executeTakeFirstOrThrow();
  return {
    server,
    token,
    userId: owner.id,
    organizationId,
    api: createServerApi({ baseUrl: base, getToken: () => token }),
    async createProject(name = 'Engine test') {
      const response = await fetch(`${base}/organizations/${organizationId}/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name, audience: 'Everyone', goal: 'Test', finalVideoLength: '1-2 minutes', brief: 'Engine test project.' }),
      });
      return ((await response.json()) as { id: number }).id;
    },
    async sha256Of(key) {
      const stream = await server.app.ctx.storage.getObjectStream(key);
      if (!stream) return null;
      const hash = createHash('sha256');
      for await (const chunk of stream.body as Readable) hash.update(chunk as Buffer);
      return hash.digest('hex');
    },
    close: () => server.close(),
  };
}

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * A deterministic pseudo-random buffer (fast to make, incompressible enough). From 24 bytes
 * on it starts with an MP4 `ftyp` box: the server registers only what its signature proves
 * a video (issue 9), and these stand for clips.
 */
export function bytes(size: number, seed = 1): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i + 4 <= size; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    buffer.writeUInt32LE(x >>> 0, i);
  }
  for (let i = size - (size % 4); i < size; i += 1) buffer[i] = i & 0xff;
  if (size >= MP4_FTYP.length) MP4_FTYP.copy(buffer, 0);
  return buffer;
}

export interface Recorded {
  method: string;
  url: URL;
  partNumber: number | null;
  bytes: number;
  status: number | 'failed';
}

/**
 * fetch transport that records every S3 request and can hold or fail chosen ones:
 * `rule` answers 'fail' (network error), a status to answer instead, 'hold' (never answers
 * until aborted), or undefined to pass.
 */
export function scriptedTransport(
  rule: (request: TransportRequest, partNumber: number | null, attempt: number) => 'fail' | 'hold' | number | undefined = () => undefined,
) {
  const inner: Transport = fetchTransport();
  const log: Recorded[] = [];
  const attempts = new Map<string, number>();
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    const part = url.searchParams.get('partNumber');
    const partNumber = part ? Number(part) : null;
    const id = `${request.method} ${url.pathname} ${part ?? ''}`;
    const attempt = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, attempt);
    const size = request.body === undefined ? 0 : typeof request.body === 'string' ? request.body.length : request.body.size;
    const action = rule(request, partNumber, attempt);
    if (action === 'fail') {
      log.push({ method: request.method, url, partNumber, bytes: size, status: 'failed' });
      throw new TransportError('network error (scripted)', false);
    }
    if (action === 'hold') {
      await new Promise((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(new TransportError('aborted', true)), { once: true }));
    }
    if (typeof action === 'number') {
      log.push({ method: request.method, url, partNumber, bytes: size, status: action });
      return {
        status: action,
        header: () => null,
        text: `<Error><Code>${action === 503 ? 'SlowDown' : 'InternalError'}</Code><Message>scripted</Message></Error>`,
      };
    }
    try {
      const response = await inner(request);
      log.push({ method: request.method, url, partNumber, bytes: size, status: response.status });
      return response;
    } catch (error) {
      log.push({ method: request.method, url, partNumber, bytes: size, status: 'failed' });
      throw error;
    }
  };
  return {
    transport,
    log,
    /** Part numbers whose PUT succeeded, in order. */
    partsSent: () => log.filter((r) => r.partNumber !== null && r.status === 200).map((r) => r.partNumber!),
    bytesSent: () => log.filter((r) => r.method === 'PUT').reduce((sum, r) => sum + r.bytes, 0),
  };
}

/** Waits until `check` holds (polling), or fails after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
