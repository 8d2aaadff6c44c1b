import type { FastifyReply } from 'fastify';
import type { LiveEvent } from '../../src/domain/contract/events.ts';
import { HttpError } from '../http-error.ts';
import { MAX_STREAMS_PER_USER, type EventHub, type StreamHolder } from './hub.ts';

/** A comment line this often keeps proxies and the server's idle timeout (2 min) from cutting the stream. */
export const PING_MS = 25_000;
/** How long the browser waits before reconnecting by itself (the `retry:` field). */
const RETRY_MS = 3_000;
/**
 * A stream ends after this long; the client gets a new ticket and opens another one, so who may
 * still see the project is checked again at least this often. Access that ends by a write the
 * database notifies (a user disabled or signed out everywhere, a link revoked, an organization
 * deleted: migration 0019) ends the stream at once instead (EventHub.accessChanged); what this
 * bound still covers is what no such write marks (a project hidden from its customer).
 */
const MAX_STREAM_MS = 5 * 60_000;
/** A client that reads nothing while this much waits unsent is cut off (it reconnects and catches up). */
const MAX_BUFFERED_BYTES = 64 * 1024;

export const TOO_MANY_STREAMS = 'Too many live connections are open. Close some tabs and try again.';

/** Event ids: increasing on this instance (a reconnecting client catches up by reading again, not by id). */
let lastId = 0;

/**
 * Turns the reply into an event stream: SSE headers (the security headers set for every answer
 * kept), a `retry:` line, a ping comment every 25 s, one `id:`/`data:` message per event the
 * stream accepts. It ends when the client goes, after MAX_STREAM_MS, or at shutdown.
 */
export function openEventStream(
  hub: EventHub,
  reply: FastifyReply,
  options: StreamHolder & {
    userId: number;
    accepts: (event: LiveEvent) => boolean;
    view?: (event: LiveEvent) => LiveEvent;
    /** The checks that opened the stream, made again when an access change names it. */
    stillAllowed: () => Promise<boolean>;
    /** When the access ends by itself (a share link's expiry): the stream ends then, as when revoked. */
    endsAt?: Date | null;
  },
): void {
  if (hub.closing) throw new HttpError(503, 'The server is restarting. Try again in a moment.');
  if (hub.openBy(options.userId) >= MAX_STREAMS_PER_USER) throw new HttpError(429, TOO_MANY_STREAMS);
  reply.hijack();
  const raw = reply.raw;
  const kept = Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined);
  raw.writeHead(200, {
    ...Object.fromEntries(kept),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  raw.write(`retry: ${RETRY_MS}\n: connected\n\n`);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(ping);
    clearTimeout(maxAge);
    remove();
    raw.end();
  };
  const write = (chunk: string) => {
    if (ended) return;
    raw.write(chunk);
    if (raw.writableLength > MAX_BUFFERED_BYTES) end();
  };
  const ping = setInterval(() => write(': ping\n\n'), PING_MS);
  const send = (event: LiveEvent) => {
    lastId += 1;
    write(`id: ${lastId}\ndata: ${JSON.stringify(options.view ? options.view(event) : event)}\n\n`);
  };
  const endsIn = options.endsAt ? options.endsAt.getTime() - Date.now() : Infinity;
  // Access that ends by itself ends like revoked access: the page reads again (and learns it), then the stream ends.
  const maxAge =
    endsIn < MAX_STREAM_MS
      ? setTimeout(() => (send({ type: 'resync', projectId: null, at: new Date().toISOString() }), end()), Math.max(0, endsIn))
      : setTimeout(end, MAX_STREAM_MS);
  const remove = hub.add({
    userId: options.userId,
    impersonatorId: options.impersonatorId,
    organizationId: options.organizationId,
    shareLinkId: options.shareLinkId,
    accepts: options.accepts,
    send,
    close: end,
    stillAllowed: options.stillAllowed,
  });
  // The response closes when the client goes (or the connection drops), and when it ended.
  raw.on('close', end);
  raw.on('error', end);
}
