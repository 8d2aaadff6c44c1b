import { embeddedPglite, type Db } from '../db/connect.ts';

/**
 * Closes a `Db` opened on an embedded database by a command (move-data, backup) that queried it
 * through `embeddedPglite` only. Kysely closes PGlite only when it ran a statement itself (its
 * driver takes the instance on first use), so such a `Db` destroyed left PGlite open: its files
 * stayed open in the process (a server started beside it saw them in use) and the event loop alive
 * (the commands end with process.exit for that reason).
 */
export async function closeEmbeddedDatabase(db: Db): Promise<void> {
  const pglite = embeddedPglite(db) as (ReturnType<typeof embeddedPglite> & { close?: () => Promise<void> }) | undefined;
  await db.destroy();
  if (pglite && !pglite.closed && typeof pglite.close === 'function') await pglite.close();
}
