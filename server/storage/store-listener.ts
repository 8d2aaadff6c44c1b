import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { closeIdleConnectionsUntilClosed } from '../idle-connections.ts';
import { STORE_ROOT_URL } from './embedded-s3/request-url.ts';

/** Where the embedded store is mounted on the app's own port (kept in step with setup.ts). */
const MOUNT = '/s3';

interface StoreListener {
  server: Server;
  port: number;
  /** Bytes read from every connection of this listener (request lines, headers and bodies). */
  receivedBytes(): number;
}

/** By the app's own http server: one per app, shared by its encapsulated plugin instances (routes see a child of `app`). */
const listeners = new WeakMap<object, StoreListener>();

/**
 * Issue 14: the embedded store on a port of its own, served by the same process and the same
 * Fastify app (the same handlers, hooks, logs, metrics and in-process state as /s3). A request
 * on it addresses the store from the root (`/<bucket>/<key>`, what s3cmd and virtual-host-less
 * clients expect); it is routed to the app as `/s3/…`, and the store verifies the signature
 * against the path the client sent (STORE_ROOT_URL).
 *
 * Why: browsers open at most six HTTP/1.1 connections per origin. With the store under the
 * app's origin, the page's live-updates stream holds one of them, and only five upload parts
 * fly; on an origin of its own all six do.
 *
 * Started by main.ts after the app listens (on the app's host); closed with the app.
 */
export async function listenStore(app: FastifyInstance, options: { host: string; port: number }): Promise<number> {
  const main = app.server;
  let closedBytes = 0;
  const open = new Set<Socket>();
  const server = createServer((request: IncomingMessage, response) => {
    const url = request.url ?? '/';
    (request as IncomingMessage & { [STORE_ROOT_URL]?: string })[STORE_ROOT_URL] = url;
    request.url = `${MOUNT}${url.startsWith('/') ? url : `/${url}`}`;
    app.routing(request, response);
  });
  // The same limits as the app's own listener: large parts from slow links must not be cut.
  server.requestTimeout = main.requestTimeout;
  server.headersTimeout = main.headersTimeout;
  server.keepAliveTimeout = main.keepAliveTimeout;
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      closedBytes += socket.bytesRead;
      open.delete(socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  listeners.set(app.server, {
    server,
    port,
    receivedBytes: () => {
      let live = 0;
      for (const socket of open) live += socket.bytesRead;
      return closedBytes + live;
    },
  });
  if (app.hasDecorator('metrics')) {
    app.metrics.counterOnScrape(
      'cutdesk_store_listener_received_bytes_total',
      "Bytes received by the embedded store's own listener (S3_PORT) since the start: requests with their bodies",
      () => listeners.get(app.server)?.receivedBytes() ?? 0,
    );
  }
  return port;
}

/** The store listener's port, or null when it does not run (not started, S3_PORT=off, external store). */
export function storeListenerPort(app: FastifyInstance): number | null {
  return listeners.get(app.server)?.port ?? null;
}

/**
 * The store's own origin as this browser can reach it: the host it used for the app with the
 * store's port. Null when there is no listener, or when the app is reached through a proxy
 * (TRUST_PROXY) or over https: the store's port is plain http on this machine, which a proxy
 * does not forward and an https page may not call (there, S3_PUBLIC_ENDPOINT names the store's
 * public address; an HTTP/2 proxy has no six-connection limit anyway).
 */
export function storeOriginFor(app: FastifyInstance, request: FastifyRequest): string | null {
  const port = storeListenerPort(app);
  if (port === null || app.ctx.config.trustProxy !== false || request.protocol !== 'http') return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${request.host}`).hostname;
  } catch {
    return null;
  }
  // The Host header is the client's: only a plain name or address goes into the CSP and the
  // credentials (the URL parser lets `;` and `'` through, which would add CSP directives).
  return HOSTNAME.test(hostname) ? `http://${hostname}:${port}` : null;
}

/**
 * The other way round (issue 36, the store's CORS): for a request the store's own listener
 * received, the app's origin at the host the browser used, i.e. the page that storeOriginFor
 * sent there (`http://<host>:<app's port>`). Null for a request on /s3, or where storeOriginFor
 * names no store origin (a proxy, https).
 */
export function appOriginFor(app: FastifyInstance, request: FastifyRequest): string | null {
  if ((request.raw as IncomingMessage & { [STORE_ROOT_URL]?: string })[STORE_ROOT_URL] === undefined) return null;
  if (app.ctx.config.trustProxy !== false || request.protocol !== 'http') return null;
  const address = app.server.address();
  if (!address || typeof address === 'string') return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${request.host}`).hostname;
  } catch {
    return null;
  }
  return HOSTNAME.test(hostname) ? new URL(`http://${hostname}:${address.port}`).origin : null;
}

/** A DNS name, an IPv4 address or a bracketed IPv6 address, as the URL parser leaves it. */
const HOSTNAME = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/;

const closing = new WeakMap<object, Promise<void>>();

/**
 * Stops the store's listener with the app: no new connections, idle ones closed as they turn
 * idle, requests in flight finish (a connection still open after 10 s is cut; the worker
 * retries a cut part). Called when the app starts closing and awaited when it has closed.
 */
export function closeStoreListener(app: FastifyInstance): Promise<void> {
  const listener = listeners.get(app.server);
  if (!listener) return closing.get(app.server) ?? Promise.resolve();
  listeners.delete(app.server);
  const cut = setTimeout(() => listener.server.closeAllConnections(), 10_000);
  cut.unref();
  const closed = new Promise<void>((resolve) => {
    listener.server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    closeIdleConnectionsUntilClosed(listener.server);
  });
  closing.set(app.server, closed);
  return closed;
}
