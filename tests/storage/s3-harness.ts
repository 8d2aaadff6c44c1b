import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbortMultipartUploadCommand, DeleteObjectsCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import Fastify from 'fastify';
import { embeddedS3Plugin } from '../../server/storage/embedded-s3/index.ts';
import type { S3Principal } from '../../server/storage/embedded-s3/index.ts';
import { closeStoreListener, listenStore } from '../../server/storage/store-listener.ts';

/**
 * Where the storage suites run: by default a Fastify app with only the embedded S3 plugin
 * (mounted at /s3, like the product) on 127.0.0.1 with a temp root; with
 * S3_CONFORMANCE_ENDPOINT (+ _BUCKET, _REGION, _ACCESS_KEY_ID, _SECRET_ACCESS_KEY) any
 * S3-compatible service instead. Everything a run writes lives under `runPrefix`.
 */

/** The page origin the embedded target answers CORS for, besides a request's own. */
export const CORS_PAGE_ORIGIN = 'http://localhost:5173';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3TestTarget {
  endpoint: string;
  bucket: string;
  region: string;
  credentials: Credentials;
  /** True when the suite started the embedded store itself (its credential resolver and CORS are ours). */
  embedded: boolean;
  /** Embedded: the surrounding app's own origin (the store may answer on a port of its own, S3_TEST_STORE_LISTENER). */
  appOrigin?: string;
  /** The embedded store's root directory, to look at its files (embedded only). */
  root?: string;
  runPrefix: string;
  /** Principals of the embedded store's resolver (embedded only). */
  restricted: Credentials & { allowedPrefix: string };
  expired: Credentials;
  close(): Promise<void>;
}

export async function startS3Target(): Promise<S3TestTarget> {
  const runPrefix = `conformance-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}/`;
  const restricted = {
    accessKeyId: 'ASIARESTRICTEDTEST',
    secretAccessKey: 'restricted-secret',
    sessionToken: 'session-token-for-tests',
    allowedPrefix: `${runPrefix}restricted/`,
  };
  const expired = { accessKeyId: 'ASIAEXPIREDTEST', secretAccessKey: 'expired-secret', sessionToken: 'expired-token' };

  const remote = process.env.S3_CONFORMANCE_ENDPOINT;
  if (remote) {
    const target: S3TestTarget = {
      endpoint: remote,
      bucket: required('S3_CONFORMANCE_BUCKET'),
      region: process.env.S3_CONFORMANCE_REGION ?? 'us-east-1',
      credentials: { accessKeyId: required('S3_CONFORMANCE_ACCESS_KEY_ID'), secretAccessKey: required('S3_CONFORMANCE_SECRET_ACCESS_KEY') },
      embedded: false,
      runPrefix,
      restricted,
      expired,
      close: async () => {
        await removeRunObjects(target);
      },
    };
    return target;
  }

  const root = await mkdtemp(join(tmpdir(), 'cutdesk-s3-'));
  const main = { accessKeyId: 'AKIAEMBEDDEDTEST', secretAccessKey: 'embedded-secret-key' };
  const principals = new Map<string, S3Principal>([
    [main.accessKeyId, { secretAccessKey: main.secretAccessKey }],
    [
      restricted.accessKeyId,
      {
        secretAccessKey: restricted.secretAccessKey,
        sessionToken: restricted.sessionToken,
        allowedPrefix: restricted.allowedPrefix,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    ],
    [expired.accessKeyId, { secretAccessKey: expired.secretAccessKey, sessionToken: expired.sessionToken, expiresAt: new Date(Date.now() - 1000) }],
  ]);
  const app = Fastify({ logger: false });
  // A JSON route beside the plugin, as in the product, to show the plugin's body handling stays inside it.
  app.post('/api/echo', async (request) => ({ received: request.body }));
  await app.register(embeddedS3Plugin, {
    prefix: '/s3',
    root,
    bucket: 'cutdesk-test',
    region: 'eu-central-1',
    credentials: { lookup: async (accessKeyId) => principals.get(accessKeyId) ?? null },
    // The app's page origin the CORS tests call from (the product names its own: server/storage/setup.ts).
    allowOrigin: (origin) => origin === CORS_PAGE_ORIGIN,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // S3_TEST_STORE_LISTENER=1: the same suites through the store's own listener, from the root
  // (issue 14: server/storage/store-listener.ts), instead of /s3 on the app's port.
  const storePort = process.env.S3_TEST_STORE_LISTENER === '1' ? await listenStore(app, { host: '127.0.0.1', port: 0 }) : null;
  return {
    endpoint: storePort === null ? `http://127.0.0.1:${port}/s3` : `http://127.0.0.1:${storePort}`,
    appOrigin: `http://127.0.0.1:${port}`,
    bucket: 'cutdesk-test',
    region: 'eu-central-1',
    credentials: main,
    embedded: true,
    root,
    runPrefix,
    restricted,
    expired,
    close: async () => {
      await closeStoreListener(app);
      await app.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set when S3_CONFORMANCE_ENDPOINT is`);
  return value;
}

export type ChecksumMode = 'default' | 'WHEN_REQUIRED';

/** An SDK client for the target: SDK default checksum behaviour, or WHEN_REQUIRED as the product uses. */
export function makeClient(target: S3TestTarget, checksums: ChecksumMode = 'WHEN_REQUIRED', credentials: Credentials = target.credentials): S3Client {
  const config: S3ClientConfig = {
    endpoint: target.endpoint,
    region: target.region,
    forcePathStyle: true,
    credentials,
    maxAttempts: 1,
  };
  if (checksums === 'WHEN_REQUIRED') {
    config.requestChecksumCalculation = 'WHEN_REQUIRED';
    config.responseChecksumValidation = 'WHEN_REQUIRED';
  }
  return new S3Client(config);
}

async function removeRunObjects(target: S3TestTarget): Promise<void> {
  const client = makeClient(target);
  try {
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: target.runPrefix }));
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length === 0) break;
      await client.send(new DeleteObjectsCommand({ Bucket: target.bucket, Delete: { Objects: keys, Quiet: true } }));
    }
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: target.bucket, Prefix: target.runPrefix }));
    for (const upload of uploads.Uploads ?? []) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: upload.Key, UploadId: upload.UploadId }));
    }
  } finally {
    client.destroy();
  }
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One plain HTTP request (Node's http client, so any header can be set, Origin included). */
export function sendRaw(url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<RawResponse> {
  const parsed = new URL(url);
  const send = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(parsed, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Key path as the SDK puts it in a URL: every segment encoded, slashes kept. */
export function encodeKey(key: string): string {
  return key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

export interface SignedRawRequest {
  method: string;
  key: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Buffer;
  /** x-amz-content-sha256 to sign; defaults to UNSIGNED-PAYLOAD. */
  contentSha256?: string;
  credentials?: Credentials;
  signingDate?: Date;
}

/** A request signed with SigV4 by the SDK's signer but built by hand, for what the SDK never sends. */
export async function sendSigned(target: S3TestTarget, request: SignedRawRequest): Promise<RawResponse> {
  const url = new URL(target.endpoint);
  const basePath = url.pathname.replace(/\/+$/, '');
  const credentials = request.credentials ?? target.credentials;
  const signer = new SignatureV4({
    credentials,
    region: target.region,
    service: 's3',
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: false,
    applyChecksum: false,
  });
  const headers: Record<string, string> = {
    host: url.host,
    'x-amz-content-sha256': request.contentSha256 ?? 'UNSIGNED-PAYLOAD',
    ...(request.body !== undefined && { 'content-length': String(request.body.length) }),
    ...request.headers,
  };
  const path = `${basePath}/${target.bucket}/${encodeKey(request.key)}`;
  const signed = await signer.sign(
    new HttpRequest({ method: request.method, protocol: url.protocol, hostname: url.hostname, path, query: request.query ?? {}, headers }),
    request.signingDate ? { signingDate: request.signingDate } : {},
  );
  const query = Object.entries(request.query ?? {})
    .map(([name, value]) => `${encodeKey(name)}=${encodeKey(value)}`)
    .join('&');
  const signedHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) signedHeaders[name] = String(value);
  return sendRaw(`${url.protocol}//${url.host}${path}${query ? `?${query}` : ''}`, {
    method: request.method,
    headers: signedHeaders,
    ...(request.body !== undefined && { body: request.body }),
  });
}

/** aws-chunked framing exactly as SDK v3 writes it, with an optional trailer line. */
export function awsChunked(chunks: Buffer[], trailer?: string): Buffer {
  const parts: Buffer[] = [];
  for (const chunk of chunks) parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  parts.push(Buffer.from('0\r\n'));
  if (trailer !== undefined) parts.push(Buffer.from(`${trailer}\r\n\r\n`));
  return Buffer.concat(parts);
}

/** The S3 error code in an XML error body. */
export function errorCode(body: Buffer): string | undefined {
  return /<Code>([^<]+)<\/Code>/.exec(body.toString('utf8'))?.[1];
}
