import type { EmbeddedPglite } from './connect.ts';

/**
 * The database's notice that a row an instance may keep in memory changed (migration 0023:
 * `board`, `user:<id>`, `users`), sent at commit by triggers, whoever wrote the row.
 */
export const CHANGES_CHANNEL = 'cutdesk_changes';

/** What a listener tells its owner. */
export interface ListenHandlers {
  /** A notification's payload, as sent (check it before trusting it). */
  heard(payload: string): void;
  /**
   * The listener is listening: the first time, or `again` after its connection was lost, when
   * what was sent meanwhile was missed.
   */
  listening?(again: boolean): void;
  /** The connection was lost: nothing is heard until `listening` again. */
  lost?(): void;
  warn(message: string): void;
}

export interface Listener {
  close(): Promise<void>;
}

/** The first wait after a lost connection; doubled on each failed attempt up to the maximum. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

/**
 * A listening connection only reads: one cut off without a word (a NAT or firewall that forgot
 * it, a failover without a reset) would look alive for the kernel's keep-alive time (hours) while
 * nothing is heard. So it is asked `select 1` this often, and taken for lost when the answer takes
 * longer than the timeout (found in review, issue 34: memory kept by its notices must not outlive it).
 */
export interface Heartbeat {
  everyMs: number;
  timeoutMs: number;
}
const HEARTBEAT: Heartbeat = { everyMs: 10_000, timeoutMs: 5_000 };

/**
 * LISTEN on one channel of PostgreSQL through a connection of its own (a pool's connection cannot
 * stay in LISTEN), named `name` (its `application_name`). A lost connection (restart, failover,
 * network) is reopened with growing waits and reported, so what the owner keeps from what it
 * heard can be dropped meanwhile.
 */
export async function listenPostgres(url: string, channel: string, name: string, handlers: ListenHandlers, heartbeat = HEARTBEAT): Promise<Listener> {
  const pg = (await import('pg')).default;
  let client: InstanceType<typeof pg.Client> | null = null;
  let closed = false;
  let everConnected = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | null = null;
  let beating: NodeJS.Timeout | null = null;

  const stopBeating = () => {
    if (beating) clearInterval(beating);
    beating = null;
  };
  const lost = (lostClient: InstanceType<typeof pg.Client>) => {
    if (client !== lostClient) return;
    client = null;
    stopBeating();
    handlers.lost?.();
    lostClient.end().catch(() => {});
    if (!closed) schedule();
  };
  const beat = (listening: InstanceType<typeof pg.Client>) => {
    const silent = setTimeout(() => {
      handlers.warn(`database listener did not answer within ${heartbeat.timeoutMs} ms`);
      lost(listening);
    }, heartbeat.timeoutMs);
    silent.unref();
    // A failed answer ends the connection, which reports itself ('error', 'end').
    listening.query('select 1').then(
      () => clearTimeout(silent),
      () => clearTimeout(silent),
    );
  };
  const schedule = () => {
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
    attempt += 1;
    timer = setTimeout(() => {
      timer = null;
      connect().catch((error: Error) => {
        handlers.warn(`cannot listen on the database (${error.message}); retrying`);
        if (!closed) schedule();
      });
    }, delay);
    timer.unref();
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString: url, keepAlive: true, keepAliveInitialDelayMillis: 10_000, application_name: name });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.heard(message.payload ?? '');
    });
    next.on('error', (error) => {
      handlers.warn(`database listener lost (${error.message})`);
      lost(next);
    });
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
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
    beating = setInterval(() => beat(next), heartbeat.everyMs);
    beating.unref();
    handlers.listening?.(everConnected);
    everConnected = true;
  };

  try {
    await connect();
  } catch (error) {
    handlers.warn(`cannot listen on the database (${(error as Error).message}); retrying`);
    schedule();
  }
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      stopBeating();
      const current = client;
      client = null;
      if (current) handlers.lost?.();
      await current?.end().catch(() => {});
    },
  };
}

/**
 * LISTEN on embedded PGlite: its notifications are delivered in this process at commit, before
 * the statement that committed returns (so a write's own notification is heard before its answer).
 */
export async function listenPglite(pglite: EmbeddedPglite, channel: string, handlers: ListenHandlers): Promise<Listener> {
  const unlisten = await pglite.listen(channel, (payload) => handlers.heard(payload));
  handlers.listening?.(false);
  return {
    async close() {
      handlers.lost?.();
      // The database may already be closed (a caller that owns it closed it first).
      if (!pglite.closed) await unlisten().catch(() => {});
    },
  };
}
