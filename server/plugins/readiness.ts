import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { checkReadiness, type Readiness } from '../services/readiness.ts';
import { connectStorage } from '../storage/setup.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this instance should get traffic now (GET /api/v1/ready). */
    readiness: ReadinessState;
  }
}

export interface ReadinessState {
  /** Checks migrations, database and object store (at most one check in flight, reused for a second). */
  check(): Promise<Readiness>;
  /** From now on the instance answers "stopping" (shutdown has begun). */
  stop(): void;
}

/** How long a check's answer is reused: balancers and probes of every instance may poll often. */
const REUSE_MS = 1_000;

/**
 * Readiness: not ready until the object store connected (the storage plugin connects it once the
 * server listens), while migrations are pending or the database or store do not answer, and
 * from the first moment of shutdown (main.ts calls `stop()` before closing; preClose too, for
 * every other close), so a balancer stops sending new requests while the ones in flight finish.
 */
export const readinessPlugin = fp(
  async function readinessPlugin(app: FastifyInstance) {
    let storageConnected = false;
    let stopping = false;
    let migrated = false;
    let last: { at: number; answer: Promise<Readiness> } | null = null;

    app.addHook('onListen', async () => {
      // Registered after the storage plugin: its own onListen has started the one connection.
      connectStorage(app).then(
        () => (storageConnected = true),
        () => undefined,
      );
    });
    app.addHook('preClose', async () => {
      stopping = true;
    });

    const run = async (): Promise<Readiness> => {
      const answer = await checkReadiness({ db: app.db, storage: app.storage, storageConnected, stopping, migrated });
      // Migrations never un-run: once seen applied they are not read again.
      migrated = answer.checks.migrations;
      return answer;
    };
    app.decorate('readiness', {
      check() {
        if (stopping) return checkReadiness({ db: app.db, storage: app.storage, storageConnected, stopping, migrated });
        const now = Date.now();
        if (!last || now - last.at > REUSE_MS) last = { at: now, answer: run() };
        return last.answer;
      },
      stop() {
        stopping = true;
      },
    } satisfies ReadinessState);
  },
  { name: 'cutdesk-readiness', dependencies: ['cutdesk-db', 'cutdesk-storage'] },
);
