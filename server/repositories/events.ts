import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/** The database's notification channel the instances' event streams listen on (server/events/). */
export function eventsRepo(db: Db) {
  return {
    /** Sends `payload` on `channel`; PostgreSQL delivers it at commit, once per transaction for identical payloads. */
    async notify(channel: string, payload: string): Promise<void> {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
  };
}
