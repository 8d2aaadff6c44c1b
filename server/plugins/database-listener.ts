import type { FastifyInstance } from 'fastify';
import { embeddedPglite } from '../db/connect.ts';
import { listenPglite, listenPostgres, type Listener, type ListenHandlers } from '../db/listen.ts';

/**
 * LISTEN on `channel` of the app's database for as long as the app runs: on PostgreSQL
 * (`databaseUrl`) through a connection of its own named `name`, on embedded PGlite through its own
 * notifications. PGlite may still be opening on its thread (server/main.ts builds the app
 * meanwhile): its LISTEN is asked for now and awaited before the server listens. The listener
 * closes on onClose, before the database (its plugin registers this after the database's).
 * False when there is no database to listen on.
 */
export async function listenWhileRunning(
  app: FastifyInstance,
  databaseUrl: string | null,
  channel: string,
  name: string,
  handlers: ListenHandlers,
): Promise<boolean> {
  let listener: Promise<Listener>;
  const pglite = embeddedPglite(app.db);
  if (databaseUrl) listener = Promise.resolve(await listenPostgres(databaseUrl, channel, name, handlers));
  else if (pglite) {
    listener = listenPglite(pglite, channel, handlers);
    listener.catch(() => undefined);
    app.addHook('onReady', async () => void (await listener));
  } else return false;
  app.addHook('onClose', async () => (await listener.catch(() => null))?.close());
  return true;
}
