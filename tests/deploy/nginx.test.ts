import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OBJECT_PUT_BYTES } from '../../server/storage/embedded-s3/context.ts';
import { MiB, SINGLE_PUT_LIMIT, planParts } from '../../src/domain/uploads.ts';
import { SITE_FILE, freeLoopbackPort, startNginx, type RunningNginx } from '../support/nginx.ts';

/**
 * Issue 32: deploy/nginx.conf, the site an operator puts in front of Cutdesk, run by Debian's
 * nginx in front of small servers that stand for the instances and record what reaches them:
 * uploads stream through (not written to nginx's disk first), live updates pass event by event,
 * long answers are not spooled to disk, the forwarded headers and request ids are set, a
 * request an instance could not take goes to the next one (a POST only when nothing was sent),
 * and the body limits fit what the product sends. The whole product behind it:
 * e2e/two-instances.spec.ts.
 */

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bytes: number;
}

interface Backend {
  server: Server;
  port: number;
  seen: Seen[];
  /** Resolved with the path of the next request whose first body bytes arrive. */
  firstBytes: Array<(url: string) => void>;
  /** Bytes the big download has handed to its socket so far. */
  bigSent: number;
}

const BIG = 64 * MiB;

function backend(kind: 'live' | 'flaky'): Promise<Backend> {
  const state: Backend = { server: createServer(), port: 0, seen: [], firstBytes: [], bigSent: 0 };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const seen: Seen = { method: request.method!, url: request.url!, headers: request.headers, bytes: 0 };
    const path = new URL(request.url!, 'http://x').pathname;
    if (kind === 'flaky' && path === '/api/v1/reset') {
      state.seen.push(seen);
      request.socket.destroy();
      return;
    }
    if (kind === 'flaky' && path === '/api/v1/unavailable') {
      state.seen.push(seen);
      response.writeHead(503, { 'retry-after': '5', 'content-type': 'application/json' }).end('{"message":"unavailable"}');
      return;
    }
    if (path.endsWith('/events')) {
      // No X-Accel-Buffering here (the real server sends it): the site's own settings must do.
      state.seen.push(seen);
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write('retry: 3000\n\ndata: first\n\n');
      // The next event a moment later, alone on the wire.
      setTimeout(() => response.write('data: second\n\n'), 300);
      return;
    }
    if (path === '/api/v1/big') {
      state.seen.push(seen);
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(BIG) });
      const chunk = Buffer.alloc(256 * 1024, 7);
      const pump = () => {
        while (state.bigSent < BIG) {
          state.bigSent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
      return;
    }
    request.on('data', (chunk: Buffer) => {
      if (seen.bytes === 0) state.firstBytes.shift()?.(request.url!);
      seen.bytes += chunk.length;
    });
    request.on('end', () => {
      state.seen.push(seen);
      response.writeHead(200, { 'content-type': 'application/json', etag: '"e"', 'x-request-id': String(request.headers['x-request-id'] ?? '') });
      response.end(JSON.stringify({ headers: request.headers, bytes: seen.bytes }));
    });
  };
  state.server.on('request', handle);
  return new Promise((resolve) =>
    state.server.listen(0, '127.0.0.1', () => {
      state.port = (state.server.address() as AddressInfo).port;
      resolve(state);
    }),
  );
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request through nginx (no keep-alive: each request is one connection, as the log lines are). */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        headers: { connection: 'close', ...options.headers, ...(options.body && { 'content-length': String(options.body.length) }) },
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

const upstreams = (main: number[], store: number) => `
  upstream cutdesk { ${main.map((port) => `server 127.0.0.1:${port} max_fails=0;`).join(' ')} keepalive 8; }
  upstream cutdesk_store { server 127.0.0.1:${store}; keepalive 4; }
  upstream cutdesk_store_port { server 127.0.0.1:${store}; keepalive 4; }`;

let live: Backend;
let flaky: Backend;
let nginx: RunningNginx;

beforeAll(async () => {
  [live, flaky] = await Promise.all([backend('live'), backend('flaky')]);
  nginx = await startNginx(upstreams([flaky.port, live.port], live.port));
});

afterAll(async () => {
  await nginx?.stop();
  for (const server of [live?.server, flaky?.server]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

/** A PUT of `size` bytes whose first MiB goes alone: the rest follows only once the store got bytes of it. */
async function streamedPut(url: string, size: number): Promise<{ status: number; streamed: boolean }> {
  const firstArrived = new Promise<string>((resolve) => live.firstBytes.push(resolve));
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'PUT', headers: { 'content-length': String(size), connection: 'close' }, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, streamed }));
    });
    request.on('error', reject);
    let streamed = false;
    request.write(Buffer.alloc(MiB, 1));
    // Buffering nginx would wait for the whole body before it connects: the store would get nothing.
    const timer = setTimeout(() => request.end(Buffer.alloc(size - MiB, 2)), 5_000);
    void firstArrived.then(() => {
      clearTimeout(timer);
      streamed = true;
      request.end(Buffer.alloc(size - MiB, 2));
    });
  });
}

describe('deploy/nginx.conf in front of servers', () => {
  it('passes upload bodies larger than a part to the store as they arrive, on /s3 and on the store’s own port, with the Host the client signed', async () => {
    const size = 25 * MiB;
    for (const url of [
      `${nginx.url}/s3/media/projects/1/raw/clip.mp4?partNumber=1&uploadId=u`,
      `${nginx.storeUrl}/media/projects/1/raw/clip.mp4?partNumber=2&uploadId=u`,
    ]) {
      expect(await streamedPut(url, size), url).toEqual({ status: 200, streamed: true });
      const arrived = live.seen.findLast((seen) => seen.method === 'PUT')!;
      expect(arrived.bytes).toBe(size);
      expect(arrived.headers.host).toBe(new URL(url).host);
    }
  });

  it('takes API bodies up to the server’s own limit (1 MiB) and refuses larger ones with 413, carrying a request id', async () => {
    const ok = await send(`${nginx.url}/api/v1/projects/1/comments`, { method: 'POST', body: Buffer.alloc(MiB, 32) });
    expect(ok.status).toBe(200);
    const refused = await send(`${nginx.url}/api/v1/projects/1/comments`, { method: 'POST', body: Buffer.alloc(MiB + 1, 32) });
    expect(refused.status).toBe(413);
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    // The operator's log names it (the instances never see the request).
    await expect.poll(() => nginx.errorLog()).toMatch(/client intended to send too large body: 1048577 bytes/);
  });

  // nginx 1.22 passes a lone event at once even with its buffers on (it writes what it has when the
  // instance pauses); the site turns them off for the streams all the same (proxy_buffering off).
  it('passes each live-update event at once, while the stream stays open', async () => {
    const first = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(`${nginx.url}/api/v1/projects/1/events?ticket=t`, { agent: false }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('data: second')) {
            request.destroy();
            resolve(text);
          }
        });
      });
      request.setTimeout(5_000, () => reject(new Error('no event within 5 s: the stream was buffered')));
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      request.end();
    });
    expect(first).toContain('data: first');
    expect(first).toContain('data: second');
  });

  it('sends a long download at the client’s pace, never spooled to nginx’s disk', async () => {
    let received = 0;
    const answer = await new Promise<{ status: number; backlog: number }>((resolve, reject) => {
      const request = httpRequest(`${nginx.url}/api/v1/big`, { agent: false }, (response) => {
        response.pause();
        // The client reads nothing for a while: nginx stops reading the instance (a spooling
        // nginx would read all 64 MiB into a temporary file meanwhile).
        setTimeout(() => {
          const backlog = live.bigSent + flaky.bigSent;
          response.on('data', (chunk: Buffer) => (received += chunk.length));
          response.on('end', () => resolve({ status: response.statusCode!, backlog }));
          response.resume();
        }, 500);
      });
      request.on('error', reject);
      request.end();
    });
    expect(answer.status).toBe(200);
    expect(answer.backlog).toBeLessThan(BIG / 2);
    expect(received).toBe(BIG);
  });

  it('sets X-Forwarded-For/-Proto/-Host and passes a sane X-Request-Id on, or makes one, the same in the answer, the instance and the log', async () => {
    const echo = async (headers: Record<string, string>) => {
      const answer = await send(`${nginx.url}/api/v1/me`, { headers });
      return { sent: (JSON.parse(answer.body) as { headers: IncomingHttpHeaders }).headers, answered: answer.headers['x-request-id'] };
    };
    const host = `localhost:${nginx.port}`;
    const { sent } = await echo({ 'x-forwarded-for': '203.0.113.9' });
    expect(sent).toMatchObject({ host, 'x-forwarded-host': host, 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.9, 127.0.0.1' });

    const given = await echo({ 'x-request-id': 'trace-42_A' });
    expect([given.sent['x-request-id'], given.answered]).toEqual(['trace-42_A', 'trace-42_A']);
    for (const odd of ['two words', 'x'.repeat(65)]) {
      const replaced = await echo({ 'x-request-id': odd });
      expect(replaced.sent['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
      expect(replaced.answered).toBe(replaced.sent['x-request-id']);
    }
    const made = await echo({});
    expect(made.sent['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(made.answered).toBe(made.sent['x-request-id']);
    await expect.poll(async () => (await nginx.accessLog()).some((line) => line.id === made.answered && line.uri === '/api/v1/me')).toBe(true);
    // The log leaves query strings out: presigned signatures and tickets travel there.
    expect(await readFile(join(nginx.dir, 'access.log'), 'utf8')).not.toContain('ticket=');
  });

  it('sends a request an instance dropped to the next one, a POST only when nothing was sent; passes the server’s own 503 on', async () => {
    // nginx alternates between the two (one worker, no failures counted): of each pair, one starts on each.
    const statuses = async (method: string, path: string) =>
      [(await send(`${nginx.url}${path}`, { method })).status, (await send(`${nginx.url}${path}`, { method })).status].sort();
    const postsBefore = live.seen.filter((seen) => seen.method === 'POST' && seen.url === '/api/v1/reset').length;
    expect(await statuses('GET', '/api/v1/reset')).toEqual([200, 200]);
    expect(await statuses('POST', '/api/v1/reset')).toEqual([200, 502]);
    // The POST the first instance dropped was not sent again: the second got only its own.
    expect(live.seen.filter((seen) => seen.method === 'POST' && seen.url === '/api/v1/reset').length - postsBefore).toBe(1);
    const unavailable = [await send(`${nginx.url}/api/v1/unavailable`), await send(`${nginx.url}/api/v1/unavailable`)].sort((a, b) => a.status - b.status);
    expect(unavailable.map((answer) => answer.status)).toEqual([200, 503]);
    expect(unavailable[1]!.headers['retry-after']).toBe('5');
  });

  it('skips an instance that is down, for every method', async () => {
    const down = await freeLoopbackPort();
    const second = await startNginx(upstreams([down, live.port], live.port));
    try {
      for (const method of ['GET', 'POST', 'GET', 'POST']) {
        expect((await send(`${second.url}/api/v1/projects`, { method, ...(method === 'POST' && { body: Buffer.from('{}') }) })).status).toBe(200);
      }
    } finally {
      await second.stop();
    }
  });

  it('logs a link whose path carries its credential without it, as the server does: media, raw-zip and review links, coupon codes', async () => {
    const secret = 'SECRET0123456789abcdefghijklmnop';
    const paths = [
      [`/api/v1/media/${secret}/preview.mp4`, '/api/v1/media/[redacted]/preview.mp4'],
      [`/api/v1/zips/${secret}/project-1_raw_assets.zip`, '/api/v1/zips/[redacted]/project-1_raw_assets.zip'],
      [`/api/v1/share/${secret}/comments`, '/api/v1/share/[redacted]/comments'],
      [`/review/${secret}`, '/review/[redacted]'],
      [`/api/v1/payment-plans/coupons/${secret}`, '/api/v1/payment-plans/coupons/[redacted]'],
      ['/api/v1/projects/7/assets', '/api/v1/projects/7/assets'],
    ];
    for (const [path] of paths) await send(`${nginx.url}${path}`);
    const logged = (await nginx.accessLog()).map((line) => line.uri);
    for (const [, expected] of paths) expect(logged).toContain(expected);
    expect(await readFile(join(nginx.dir, 'access.log'), 'utf8')).not.toContain(secret);
  });

  it('keeps /metrics to the instances themselves', async () => {
    const before = live.seen.length + flaky.seen.length;
    expect((await send(`${nginx.url}/metrics`)).status).toBe(404);
    expect(live.seen.length + flaky.seen.length).toBe(before);
  });

  it('takes on the store every body the product sends: browser parts and single PUTs, and S3 tools up to the store’s own limit', async () => {
    const site = await readFile(SITE_FILE, 'utf8');
    const sizes = [...site.matchAll(/client_max_body_size\s+(\d+)([kmg]?);/g)].map(
      ([, n, unit]) => Number(n) * { '': 1, k: 1024, m: MiB, g: 1024 * MiB }[unit!]!,
    );
    // The API's, then /s3's and the store port's.
    expect(sizes).toEqual([MiB, MAX_OBJECT_PUT_BYTES, MAX_OBJECT_PUT_BYTES]);
    // The largest part the upload engine ever sends (a 5 TiB file, 10,000 parts) and its single PUTs fit.
    const largestPart = planParts(5 * 1024 ** 4);
    expect(largestPart.mode === 'multipart' && largestPart.partSize).toBeLessThanOrEqual(MAX_OBJECT_PUT_BYTES);
    expect(SINGLE_PUT_LIMIT).toBeLessThanOrEqual(MAX_OBJECT_PUT_BYTES);
  });
});
