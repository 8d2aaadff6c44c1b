import type { EmbeddedPglite } from '../db/connect.ts';
import type { LiveEvent } from '../../src/domain/contract/events.ts';
import { EVENTS_CHANNEL, decodeHeard, type AccessChange, type Heard } from './bus.ts';

/** What a subscriber tells its instance. */
export interface SubscriberHandlers {
  /** An event heard on the channel. */
  event(event: LiveEvent): void;
  /** Access ended for a user, a share link or an organization (its streams are checked again). */
  access(change: AccessChange): void;
  /** The listener was away (its connection was lost and is back): events may have been missed. */
  resync(): void;
  warn(message: string): void;
}

export interface Subscriber {
  close(): Promise<void>;
}

function deliver(handlers: SubscriberHandlers, heard: Heard | null): void {
  if (!heard) return;
  if ('event' in heard) handlers.event(heard.event);
  else handlers.access(heard.access);
}

/** The first wait after a lost connection; doubled on each failed attempt up to the maximum. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

/**
 * LISTEN on PostgreSQL through one dedicated connection (a pool's connection cannot stay in
 * LISTEN). A lost connection (restart, failover, network) is reopened with growing waits; once
 * back, `resync` tells the open streams that they may have missed events.
 */
export async function listenPostgres(url: string, handlers: SubscriberHandlers): Promise<Subscriber> {
  const pg = (await import('pg')).default;
  let client: InstanceType<typeof pg.Client> | null = null;
  let closed = false;
  let everConnected = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | null = null;

  const lost = (lostClient: InstanceType<typeof pg.Client>) => {
    if (client !== lostClient) return;
    client = null;
    lostClient.end().catch(() => {});
    if (!closed) schedule();
  };
  const schedule = () => {
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
    attempt += 1;
    timer = setTimeout(() => {
      timer = null;
      connect().catch((error: Error) => {
        handlers.warn(`live updates: cannot listen on the database (${error.message}); retrying`);
        if (!closed) schedule();
      });
    }, delay);
    timer.unref();
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString: url, keepAlive: true, application_name: 'cutdesk-events' });
    next.on('notification', (message) => {
      if (message.channel !== EVENTS_CHANNEL) return;
      deliver(handlers, decodeHeard(message.payload));
    });
    next.on('error', (error) => {
      handlers.warn(`live updates: database listener lost (${error.message})`);
      lost(next);
    });
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    attempt = 0;
    if (everConnected) handlers.resync();
    everConnected = true;
  };

  try {
    await connect();
  } catch (error) {
    handlers.warn(`live updates: cannot listen on the database (${(error as Error).message}); retrying`);
    schedule();
  }
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}

/** LISTEN on embedded PGlite: its notifications are delivered in this process, at commit. */
export async function listenPglite(pglite: EmbeddedPglite, handlers: SubscriberHandlers): Promise<Subscriber> {
  const unlisten = await pglite.listen(EVENTS_CHANNEL, (payload) => {
    deliver(handlers, decodeHeard(payload));
  });
  return {
    async close() {
      // The database may already be closed (a caller that owns it closed it first).
      if (!pglite.closed) await unlisten().catch(() => {});
    },
  };
}
