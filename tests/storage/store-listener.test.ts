import { createConnection } from 'node:net';
import { randomBytes } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { listenStore, storeListenerPort } from '../../server/storage/store-listener.ts';
import { mp4Bytes } from '../support/file-fixtures.ts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../server/harness.ts';

/**
 * Issue 14: the embedded store also listens on a port of its own (S3_PORT), served by the same
 * app: browsers upload there with all six HTTP/1.1 connections (none taken by the page's
 * live-updates stream), and S3 clients that cannot take an endpoint with a path get a root one.
 * The credentials stay what they were: temporary, limited to the project's `raw/` prefix, upload only.
 */
interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  endpoint: string;
  bucket: string;
  region: string;
  prefix: string;
}
/** A seeded server starts in seconds; on a loaded 2-core machine it can take a minute. */
const SERVER_START_MS = 180_000;
const BRIEF = { name: 'Own port', audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A short film.' };

function client(endpoint: string, region: string, credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }): S3Client {
  return new S3Client({
    endpoint,
    region,
    forcePathStyle: true,
    credentials,
    maxAttempts: 1,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

async function signInOwner(baseUrl: string): Promise<{ authorization: string; organizationId: number }> {
  const response = await fetch(`${baseUrl}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@demo.cutdesk.test', password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { token: string; organizationId: number };
  return { authorization: `Bearer ${body.token}`, organizationId: body.organizationId };
}

/** Upload credentials for a new project, asked for over HTTP the way a browser asks (its Host decides the address). */
async function uploadCredentials(baseUrl: string, headers: Record<string, string> = {}): Promise<Credentials> {
  const owner = await signInOwner(baseUrl);
  const json = { 'content-type': 'application/json', authorization: owner.authorization, ...headers };
  const project = (await (
    await fetch(`${baseUrl}/api/v1/organizations/${owner.organizationId}/projects`, { method: 'POST', headers: json, body: JSON.stringify(BRIEF) })
  ).json()) as { id: number };
  const response = await fetch(`${baseUrl}/api/v1/uploads/credentials`, { method: 'POST', headers: json, body: JSON.stringify({ projectId: project.id }) });
  expect(response.status).toBe(200);
  return (await response.json()) as Credentials;
}

describe('S3_PORT: the embedded store on a port of its own', () => {
  it("defaults to the app port + 1, takes a port, 0 or off, and refuses the app's own port", () => {
    const env = { DATA_DIR: '.tmp/store-listener-config', SEED: 'none' };
    expect(loadConfig({ ...env, PORT: '8080' }).storage.storeListener).toEqual({ port: 8081, explicit: false });
    expect(loadConfig({ ...env, PORT: '0' }).storage.storeListener).toEqual({ port: 0, explicit: false });
    expect(loadConfig({ ...env, PORT: '8080', S3_PORT: '9000' }).storage.storeListener).toEqual({ port: 9000, explicit: true });
    expect(loadConfig({ ...env, PORT: '8080', S3_PORT: 'off' }).storage.storeListener).toBeNull();
    expect(() => loadConfig({ ...env, PORT: '8080', S3_PORT: '8080' })).toThrow(/S3_PORT must differ from PORT/);
    expect(() => loadConfig({ ...env, PORT: '8080', S3_PORT: 'nine' })).toThrow(/S3_PORT must be a port number/);
  });

  it('reads S3_CORS_ORIGINS as origins, and refuses *, paths and other schemes', () => {
    const env = { DATA_DIR: '.tmp/store-listener-config', SEED: 'none' };
    expect(loadConfig(env).storage.corsOrigins).toEqual([]);
    expect(loadConfig({ ...env, S3_CORS_ORIGINS: ' https://App.Example.com:443/ , http://localhost:5173,http://localhost:5173' }).storage.corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    for (const bad of ['*', 'https://app.example.com/portal', 'ftp://files.example.com', 'app.example.com']) {
      expect(() => loadConfig({ ...env, S3_CORS_ORIGINS: bad }), bad).toThrow(/S3_CORS_ORIGINS/);
    }
  });
});

describe('the embedded store on its own port', () => {
  let server: TestServer;
  let store: string;
  const clients: S3Client[] = [];

  beforeAll(async () => {
    server = await startTestServer(null, {
      storage: true,
      seed: true,
      env: { PUBLIC_URL: 'http://cutdesk.example.test', S3_CORS_ORIGINS: 'http://localhost:5173' },
    });
    const port = await listenStore(server.app, { host: '127.0.0.1', port: 0 });
    store = `http://127.0.0.1:${port}`;
  }, SERVER_START_MS);
  afterAll(async () => {
    for (const each of clients) each.destroy();
    await server?.close();
  });

  it("answers S3 from the root with the server's key pair, and shares its objects with /s3", async () => {
    const { region, bucket, accessKeyId, secretAccessKey } = server.config.storage;
    const root = client(store, region, { accessKeyId, secretAccessKey });
    const mounted = client(`${server.baseUrl}/s3`, region, { accessKeyId, secretAccessKey });
    clients.push(root, mounted);
    const key = `own-port/${randomBytes(4).toString('hex')}.bin`;
    const bytes = randomBytes(6 * 1024 * 1024 + 17);
    const upload = await root.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    const first = await root.send(
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: upload.UploadId, PartNumber: 1, Body: bytes.subarray(0, 5 * 1024 * 1024) }),
    );
    const second = await mounted.send(
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: upload.UploadId, PartNumber: 2, Body: bytes.subarray(5 * 1024 * 1024) }),
    );
    await root.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: upload.UploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: first.ETag },
            { PartNumber: 2, ETag: second.ETag },
          ],
        },
      }),
    );
    const read = await mounted.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(Buffer.from(await read.Body!.transformToByteArray()).equals(bytes)).toBe(true);
    const listed = await root.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'own-port/' }));
    expect(listed.Contents?.map((each) => each.Key)).toContain(key);
  });

  it('refuses a request signed for /s3 when sent to the root (the path is part of the signature)', async () => {
    const { region, bucket, accessKeyId, secretAccessKey } = server.config.storage;
    const mounted = client(`${server.baseUrl}/s3`, region, { accessKeyId, secretAccessKey });
    clients.push(mounted);
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    const url = new URL(await getSignedUrl(mounted, new GetObjectCommand({ Bucket: bucket, Key: 'whatever.bin' }), { expiresIn: 60 }));
    const response = await fetch(`${store}${url.pathname.slice('/s3'.length)}${url.search}`);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('SignatureDoesNotMatch');
  });

  it("hands browsers upload credentials for the store's own origin, still limited to the project's raw/ prefix and to uploads", async () => {
    const credentials = await uploadCredentials(server.baseUrl!);
    expect(credentials.endpoint).toBe(store);
    expect(credentials.prefix).toMatch(/^projects\/\d+\/raw\/$/);
    const browser = client(credentials.endpoint, credentials.region, {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      sessionToken: credentials.sessionToken,
    });
    clients.push(browser);
    await browser.send(
      new PutObjectCommand({ Bucket: credentials.bucket, Key: `${credentials.prefix}interviews/clip.mp4`, Body: mp4Bytes(2048), IfNoneMatch: '*' }),
    );
    await expect(
      browser.send(new PutObjectCommand({ Bucket: credentials.bucket, Key: 'projects/999/raw/interviews/intruder.mp4', Body: 'no' })),
    ).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(browser.send(new GetObjectCommand({ Bucket: credentials.bucket, Key: `${credentials.prefix}interviews/clip.mp4` }))).rejects.toMatchObject({
      name: 'AccessDenied',
    });
    // The same host the browser used for the app: localhost stays localhost.
    const byName = await uploadCredentials(server.baseUrl!.replace('127.0.0.1', 'localhost'));
    expect(byName.endpoint).toBe(store.replace('127.0.0.1', 'localhost'));
  });

  it("answers the browser's CORS preflight and lets the page connect there (CSP connect-src)", async () => {
    const preflight = await fetch(`${store}/${server.config.storage.bucket}/projects/1/raw/interviews/a.mp4?partNumber=1&uploadId=x`, {
      method: 'OPTIONS',
      headers: { origin: server.baseUrl!, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,x-amz-date' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(server.baseUrl);
    const page = await fetch(`${server.baseUrl}/api/v1/health`);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`connect-src 'self' ${store}`);
    // The store's own answers keep their own headers (no app CSP, sandboxed content).
    expect(preflight.headers.get('content-security-policy')).toBe('sandbox');
  });

  it("answers CORS for the app's own origins only: the page sent there, PUBLIC_URL, S3_CORS_ORIGINS", async () => {
    const object = `/${server.config.storage.bucket}/projects/1/raw/interviews/a.mp4`;
    const allowOrigin = async (base: string, origin: string) => {
      const preflight = await fetch(`${base}${object}?partNumber=1&uploadId=x`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT' },
      });
      const read = await fetch(`${base}${object}`, { headers: { origin } });
      expect(read.status).toBe(403);
      // The preflight and an answer agree.
      expect(read.headers.get('access-control-allow-origin')).toBe(preflight.headers.get('access-control-allow-origin'));
      return `${preflight.status} ${preflight.headers.get('access-control-allow-origin') ?? '-'}`;
    };
    const appPort = new URL(server.baseUrl!).port;
    const storePort = new URL(store).port;
    // The store's port, reached at the host the page used: that page (same host, the app's port).
    expect(await allowOrigin(store, server.baseUrl!)).toBe(`200 ${server.baseUrl}`);
    expect(await allowOrigin(`http://localhost:${storePort}`, `http://localhost:${appPort}`)).toBe(`200 http://localhost:${appPort}`);
    expect(await allowOrigin(store, 'http://cutdesk.example.test')).toBe('200 http://cutdesk.example.test');
    expect(await allowOrigin(store, 'http://localhost:5173')).toBe('200 http://localhost:5173');
    // /s3 on the app's port: the page's own origin.
    expect(await allowOrigin(`${server.baseUrl}/s3`, server.baseUrl!)).toBe(`200 ${server.baseUrl}`);
    // Anyone else: refused, nothing echoed (another site, another port of this host, the other name of this host).
    for (const other of ['https://evil.example', 'http://127.0.0.1:1', `http://localhost:${appPort}`, 'http://cutdesk.example.test.evil.example', 'null']) {
      expect(`${other}: ${await allowOrigin(store, other)}`).toBe(`${other}: 403 -`);
      expect(`${other}: ${await allowOrigin(`${server.baseUrl}/s3`, other)}`).toBe(`${other}: 403 -`);
    }
  });

  it('names no store origin for a Host header that is not a plain name (no directive slips into the CSP)', async () => {
    const forged = await server.app.inject({ method: 'GET', url: '/api/v1/health', headers: { host: 'evil;script-src-elem:80' } });
    const csp = String(forged.headers['content-security-policy'] ?? '');
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('evil');
    expect(csp).not.toContain('script-src-elem');
  });

  it('counts the bytes it receives for /metrics', async () => {
    const scrape = async () =>
      Number(/^cutdesk_store_listener_received_bytes_total (\S+)$/m.exec(await (await fetch(`${server.baseUrl}/metrics`)).text())?.[1]);
    const before = await scrape();
    const { region, bucket, accessKeyId, secretAccessKey } = server.config.storage;
    const root = client(store, region, { accessKeyId, secretAccessKey });
    clients.push(root);
    await root.send(new PutObjectCommand({ Bucket: bucket, Key: 'own-port/counted.bin', Body: randomBytes(100_000) }));
    expect((await scrape()) - before).toBeGreaterThanOrEqual(100_000);
  });
});

describe("where the browser is sent when the store's port is not its way in", () => {
  it(
    'behind a proxy (TRUST_PROXY) uploads keep going to /s3 on the address the browser used',
    async () => {
      const server = await startTestServer(null, { storage: true, seed: true, env: { TRUST_PROXY: '1' } });
      try {
        await listenStore(server.app, { host: '127.0.0.1', port: 0 });
        const credentials = await uploadCredentials(server.baseUrl!, { 'x-forwarded-host': 'cutdesk.example.com', 'x-forwarded-proto': 'https' });
        expect(credentials.endpoint).toBe('https://cutdesk.example.com/s3');
        // CORS there: the page the proxy serves (the request's own origin), not another.
        const preflight = (origin: string) =>
          fetch(`${server.baseUrl}/s3/${server.config.storage.bucket}/projects/1/raw/a.mp4`, {
            method: 'OPTIONS',
            headers: { origin, 'access-control-request-method': 'PUT', 'x-forwarded-host': 'cutdesk.example.com', 'x-forwarded-proto': 'https' },
          });
        expect((await preflight('https://cutdesk.example.com')).headers.get('access-control-allow-origin')).toBe('https://cutdesk.example.com');
        expect((await preflight('https://evil.example')).status).toBe(403);
        expect((await fetch(`${server.baseUrl}/api/v1/health`)).headers.get('content-security-policy')).not.toContain(`:${storeListenerPort(server.app)}`);
      } finally {
        await server.close();
      }
    },
    SERVER_START_MS,
  );

  it(
    "S3_PUBLIC_ENDPOINT wins over the store's own port",
    async () => {
      const server = await startTestServer(null, { storage: true, seed: true, env: { S3_PUBLIC_ENDPOINT: 'https://files.example.com' } });
      try {
        await listenStore(server.app, { host: '127.0.0.1', port: 0 });
        expect((await uploadCredentials(server.baseUrl!)).endpoint).toBe('https://files.example.com');
      } finally {
        await server.close();
      }
    },
    SERVER_START_MS,
  );

  it(
    'closes with the app',
    async () => {
      const server = await startTestServer(null, { storage: true, seed: false });
      const port = await listenStore(server.app, { host: '127.0.0.1', port: 0 });
      await server.close();
      expect(storeListenerPort(server.app)).toBeNull();
      const refused = await new Promise<boolean>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(false)));
        socket.on('error', () => resolve(true));
      });
      expect(refused).toBe(true);
    },
    SERVER_START_MS,
  );
});
