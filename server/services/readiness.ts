import type { Db } from '../db/connect.ts';
import { migrator } from '../migrations/index.ts';
import { pingDatabase } from '../repositories/health.ts';
import type { ObjectStore } from '../storage/object-store.ts';

/** GET /api/v1/ready's answer: 200 when `status` is 'ready', else 503. */
export interface Readiness {
  status: 'ready' | 'starting' | 'unavailable' | 'stopping';
  checks: { migrations: boolean; database: boolean; storage: boolean };
}

/** A check that has not answered within this long counts as failed: a probe must answer in time. */
const CHECK_TIMEOUT_MS = 2_000;
/** A key the store never holds: a HEAD of it answers "not found" from a store that works. */
const PROBE_KEY = 'readiness-probe/absent';

async function answers(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((done) => (timer = setTimeout(() => done(false), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([
      check().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this instance can serve: every migration applied, the database answers, the object
 * store is connected and answers, and the instance is not shutting down. Checks run at once
 * (none when stopping); `starting` until the store first connected, `unavailable` after.
 */
export async function checkReadiness(input: {
  db: Db;
  storage: ObjectStore;
  storageConnected: boolean;
  stopping: boolean;
  migrated: boolean;
}): Promise<Readiness> {
  if (input.stopping) return { status: 'stopping', checks: { migrations: input.migrated, database: false, storage: false } };
  const [migrations, database, storage] = await Promise.all([
    input.migrated ||
      answers(async () => {
        const known = await migrator(input.db).getMigrations();
        if (known.some((migration) => !migration.executedAt)) throw new Error('migrations pending');
      }),
    answers(() => pingDatabase(input.db)),
    input.storageConnected && answers(() => input.storage.headObject(PROBE_KEY)),
  ]);
  const checks = { migrations, database, storage };
  if (migrations && database && storage) return { status: 'ready', checks };
  return { status: input.storageConnected ? 'unavailable' : 'starting', checks };
}
