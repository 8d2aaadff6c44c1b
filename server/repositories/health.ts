import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/** Throws when the database does not answer (GET /ready's check). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
