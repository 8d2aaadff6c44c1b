import type { Server } from 'node:http';

/**
 * Closes a closing server's idle keep-alive connections as they turn idle. Node closes the idle
 * ones once, when `close()` is called; a connection whose answer was still going out then (a
 * download under way) turns idle a moment later and would be held until the keep-alive timeout
 * (65 s), past the shutdown's grace (main.ts). Every 250 ms until the server has closed.
 */
export function closeIdleConnectionsUntilClosed(server: Server): void {
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 250);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}
