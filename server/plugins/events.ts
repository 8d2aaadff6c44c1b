import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { EventHub } from '../events/hub.ts';
import { decodeHeard, EVENTS_CHANNEL } from '../events/bus.ts';
import type { ListenHandlers } from '../db/listen.ts';
import { listenWhileRunning } from './database-listener.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's open event streams (live updates), fed by its database listener. */
    events: EventHub;
  }
}

export interface EventsPluginOptions {
  config: Pick<Config, 'databaseUrl'>;
}

/**
 * Live updates (server/events/): one LISTEN connection per instance on the database's
 * `cutdesk_events` channel (PostgreSQL: a dedicated connection, reopened when lost; PGlite: its
 * in-process notifications), fanned out to this instance's open streams. On shutdown the
 * streams end first (preClose: an open stream would keep the HTTP server from closing), the
 * listener after (onClose, before the database closes: registered after it).
 */
export const eventsPlugin = fp(
  async function eventsPlugin(app: FastifyInstance, options: EventsPluginOptions) {
    const hub = new EventHub();
    app.decorate('events', hub);
    const handlers: ListenHandlers = {
      heard(payload) {
        // Anything on the channel that is not one of ours is ignored, never trusted blindly.
        const heard = decodeHeard(payload);
        if (heard && 'event' in heard) hub.dispatch(heard.event);
        else if (heard) void hub.accessChanged(heard.access);
      },
      // Back after a loss: the open streams may have missed events.
      listening: (again) => again && hub.dispatch({ type: 'resync', projectId: null, at: new Date().toISOString() }),
      warn: (message) => app.log.warn(`live updates: ${message}`),
    };
    if (!(await listenWhileRunning(app, options.config.databaseUrl, EVENTS_CHANNEL, 'cutdesk-events', handlers)))
      app.log.warn('live updates are off: no database to listen on');
    app.addHook('preClose', async () => hub.closeAll());
  },
  { name: 'cutdesk-events', dependencies: ['cutdesk-db'] },
);
