import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/** A counter's row as read back: its count and the milliseconds its window still runs. */
export interface RateLimitRow {
  count: number;
  ttl: number;
}

/** The fixed-window counters (table rate_limits, migration 0006), timed by the database's clock. */
export function rateLimitsRepo(db: Db) {
  const ttl = sql`greatest(extract(epoch from (reset_at - now())) * 1000, 0)::float8`;
  return {
    /** Counts one for `key` in one atomic statement (no read-then-write race between instances). */
    async hit(key: string, windowMs: number): Promise<RateLimitRow | undefined> {
      const window = sql`${windowMs}::double precision * interval '1 millisecond'`;
      const { rows } = await sql<RateLimitRow>`
        insert into rate_limits as r (key, count, reset_at) values (${key}, 1, now() + ${window})
        on conflict (key) do update set
          count = case when r.reset_at <= now() then 1 else r.count + 1 end,
          reset_at = case when r.reset_at <= now() then now() + ${window} else r.reset_at end
        returning count, ${ttl} as ttl`.execute(db);
      return rows[0];
    },
    async read(key: string): Promise<RateLimitRow | undefined> {
      const { rows } = await sql<RateLimitRow>`select count, ${ttl} as ttl from rate_limits where key = ${key} and reset_at > now()`.execute(db);
      return rows[0];
    },
    async forgive(key: string): Promise<void> {
      await sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key}`.execute(db);
    },
    async clear(key: string): Promise<void> {
      await sql`delete from rate_limits where key = ${key}`.execute(db);
    },
    /** Drops counters whose window ended; returns how many. */
    async sweep(): Promise<number> {
      const result = await sql`delete from rate_limits where reset_at <= now()`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
}
