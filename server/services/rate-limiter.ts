import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { rateLimitsRepo, type RateLimitRow } from '../repositories/rate-limits.ts';

/** A counter after a hit (or a read): how many in the current window, and how long it still runs. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends (0 when no window is running). */
  ttlMs: number;
}

/**
 * Fixed-window counters kept in the database (table rate_limits, migration 0006), so every
 * instance of the server counts the same attempts: a limit is a limit for the whole service,
 * not per process. The window's end uses the database's clock, never an instance's.
 */
export class RateLimiter {
  readonly #db: Db;
  readonly windowMs: number;

  constructor(db: Db, windowMs: number) {
    this.#db = db;
    this.windowMs = windowMs;
  }

  /** Counts one for `key` in one atomic statement (no read-then-write race between instances). */
  async hit(key: string, windowMs = this.windowMs): Promise<WindowCount> {
    return toCount(await rateLimitsRepo(this.#db).hit(key, windowMs));
  }

  /** The current count of `key` without counting (0 once its window has ended). */
  async read(key: string): Promise<WindowCount> {
    return toCount(await rateLimitsRepo(this.#db).read(key));
  }

  /** Takes back one hit (an attempt that turned out to be a success does not count). */
  async forgive(key: string): Promise<void> {
    await rateLimitsRepo(this.#db).forgive(key);
  }

  /** Forgets `key` (a success ends the run of failures of this source). */
  async clear(key: string): Promise<void> {
    await rateLimitsRepo(this.#db).clear(key);
  }

  /** Drops counters whose window ended; returns how many. Run periodically (server/jobs.ts). */
  async sweep(): Promise<number> {
    return rateLimitsRepo(this.#db).sweep();
  }

  /**
   * The store class @fastify/rate-limit instantiates (it calls `new Store(options)`, so the
   * database reaches it through this closure). Each route gets a child keyed by its method and
   * URL, so one route's requests never use up another route's limit. A database error lets the
   * request through (`skipOnError`): the limit is a guard, not a reason to refuse service.
   */
  pluginStore(log: FastifyBaseLogger): new (options: unknown) => PluginStore {
    return pluginStoreClass(this, log);
  }
}

function pluginStoreClass(limiter: RateLimiter, log: FastifyBaseLogger): new (options: unknown) => PluginStore {
  return class DbStore implements PluginStore {
    readonly #namespace: string;
    constructor(_options: unknown, namespace = 'route') {
      this.#namespace = namespace;
    }
    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      limiter.hit(`${this.#namespace}:${key}`, timeWindow).then(
        (count) => callback(null, { current: count.count, ttl: count.ttlMs }),
        (error: unknown) => {
          // A database that does not answer is the request's own warning (503) once it reads the
          // database: not a second line, at error level with a stack, for every request meanwhile.
          if (isDatabaseUnavailable(error)) log.debug({ err: error }, 'rate limit store unavailable; request let through');
          else log.error({ err: error }, 'rate limit store failed; request let through');
          callback(error as Error, { current: 0, ttl: 0 });
        },
      );
    }
    read(key: string, callback: StoreCallback): void {
      limiter.read(`${this.#namespace}:${key}`).then(
        (count) => callback(null, { current: count.count, ttl: count.ttlMs }),
        (error: unknown) => callback(error as Error, { current: 0, ttl: 0 }),
      );
    }
    child(routeOptions: { routeInfo?: { method?: string | string[]; url?: string } }): PluginStore {
      const info = routeOptions.routeInfo ?? {};
      const method = Array.isArray(info.method) ? info.method.join(',') : (info.method ?? '');
      return new DbStore(routeOptions, `route:${method} ${info.url ?? ''}`);
    }
  };
}

type StoreCallback = (error: Error | null, result: { current: number; ttl: number }) => void;

interface PluginStore {
  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  read(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): PluginStore;
}

function toCount(row: RateLimitRow | undefined): WindowCount {
  if (!row) return { count: 0, ttlMs: 0 };
  return { count: Number(row.count), ttlMs: Math.ceil(Number(row.ttl)) };
}
