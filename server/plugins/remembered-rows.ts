import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { hearPoolChanges } from '../db/connect.ts';
import { CHANGES_CHANNEL, type ListenHandlers } from '../db/listen.ts';
import { listenWhileRunning } from './database-listener.ts';
import { RememberedRows } from '../services/remembered-rows.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Rows every request reads, kept in memory while the database says they are unchanged. */
    remembered: RememberedRows;
  }
}

export interface RememberedRowsPluginOptions {
  config: Pick<Config, 'databaseUrl'>;
}

/**
 * Issue 34: this instance's memory of the rows every request reads (server/services/remembered-rows.ts),
 * kept exact by the database's changes channel: on PostgreSQL a listening connection of its own
 * (`cutdesk-changes`, reopened when lost) plus every pooled connection (a write's own notice
 * before its commit returns); on PGlite its in-process notifications. Without either nothing is
 * kept and every request reads, as before.
 */
export const rememberedRowsPlugin = fp(
  async function rememberedRowsPlugin(app: FastifyInstance, options: RememberedRowsPluginOptions) {
    const remembered = new RememberedRows();
    app.decorate('remembered', remembered);
    const handlers: ListenHandlers = {
      heard: (payload) => remembered.heard(payload),
      listening: () => remembered.listening(true),
      lost: () => remembered.listening(false),
      warn: (message) => app.log.warn(`rows in memory: ${message}`),
    };
    if (options.config.databaseUrl) {
      // A write through this instance's pool is heard there, before its commit returns (server/db/connect.ts).
      const stopHearing = hearPoolChanges(app.db, (payload) => remembered.heard(payload));
      app.addHook('onClose', async () => stopHearing());
    }
    await listenWhileRunning(app, options.config.databaseUrl, CHANGES_CHANNEL, 'cutdesk-changes', handlers);
  },
  { name: 'cutdesk-remembered-rows', dependencies: ['cutdesk-db'] },
);
