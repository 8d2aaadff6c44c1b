import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the real server (app, API and its embedded store), for
 * the reload test and bench/upload-engine-reload.ts: the browser talks to it as it would to the
 * server, and it counts the body bytes of every part PUT the store actually received — a request
 * cut by a reload counts the bytes that arrived before the cut — and, optionally, reads part
 * bodies no faster than `bytesPerSecond` per request, so a reload lands in the middle of an
 * upload on any machine. The upload credentials' `endpoint` is pointed at the proxy's own
 * `/s3` (the store's path-style mount on the server), so every part goes through it whatever
 * address the server hands out. Nothing is mocked: every request reaches the real store.
 */

interface PartRequest {
  partNumber: number;
  /** Body bytes that reached the store. */
  received: number;
  /** The Content-Length the browser announced. */
  length: number;
  /** The request ended with its whole body, answered by the store (status). */
  status: number | null;
  /** The browser cut the request before its body was whole. */
  cut: boolean;
}

export interface CountingProxy {
  origin: string;
  parts: PartRequest[];
  /** Part requests whose body is still arriving. */
  inFlight(): PartRequest[];
  /** Body bytes of part PUTs the store received, cut requests included. */
  partBytes(): number;
  /** Part bodies read at most this fast per request from now on (undefined: as fast as they come). */
  setRate(bytesPerSecond: number | undefined): void;
  close(): Promise<void>;
}

export async function startCountingProxy(options: { target: string; port: number; bytesPerSecond?: number }): Promise<CountingProxy> {
  const target = new URL(options.target);
  const parts: PartRequest[] = [];
  let origin = '';
  let bytesPerSecond = options.bytesPerSecond;
  const server: Server = createServer((incoming: IncomingMessage, outgoing) => {
    const url = new URL(incoming.url ?? '/', 'http://proxy');
    const partNumber = incoming.method === 'PUT' && url.searchParams.has('uploadId') ? Number(url.searchParams.get('partNumber')) : 0;
    const part: PartRequest | null =
      partNumber > 0 ? { partNumber, received: 0, length: Number(incoming.headers['content-length'] ?? 0), status: null, cut: false } : null;
    if (part) parts.push(part);
    const rewrite = incoming.method === 'POST' && url.pathname.endsWith('/uploads/credentials');
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        if (part) part.status = answer.statusCode ?? 0;
        if (!rewrite) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          if (answer.statusCode === 200) {
            const json = JSON.parse(body.toString('utf8')) as { endpoint: string };
            json.endpoint = `${origin}/s3`;
            body = Buffer.from(JSON.stringify(json));
          }
          outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
          outgoing.end(body);
        });
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.on('aborted', () => {
      if (part && part.received < part.length) part.cut = true;
      upstream.destroy();
    });
    outgoing.on('close', () => {
      if (part && part.status === null && part.received < part.length) part.cut = true;
    });
    const rate = part ? bytesPerSecond : undefined;
    let budget = rate ? rate / 10 : Infinity;
    let waitingForUpstream = false;
    const tick = rate
      ? setInterval(() => {
          budget = rate / 10;
          if (!waitingForUpstream) incoming.resume();
        }, 100)
      : null;
    incoming.on('data', (chunk: Buffer) => {
      if (part) part.received += chunk.length;
      budget -= chunk.length;
      if (!upstream.write(chunk) && !waitingForUpstream) {
        waitingForUpstream = true;
        incoming.pause();
        upstream.once('drain', () => {
          waitingForUpstream = false;
          if (budget > 0) incoming.resume();
        });
      } else if (budget <= 0) {
        incoming.pause();
      }
    });
    incoming.on('end', () => upstream.end());
    incoming.on('close', () => tick && clearInterval(tick));
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    parts,
    inFlight: () => parts.filter((part) => part.status === null && !part.cut),
    partBytes: () => parts.reduce((sum, part) => sum + part.received, 0),
    setRate: (next) => (bytesPerSecond = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
