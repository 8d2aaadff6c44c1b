import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from '../db/connect.ts';
import { startupMark } from '../startup-trace.ts';
import * as foundation from './0001-foundation.ts';
import * as projectTimers from './0002-project-timers.ts';
import * as organizationsUsers from './0003-organizations-users.ts';
import * as uploads from './0004-uploads.ts';
import * as mediaJobs from './0005-media-jobs.ts';
import * as rateLimits from './0006-rate-limits.ts';
import * as sessionVersion from './0007-session-version.ts';
import * as releasedVersions from './0008-released-versions-bound-credentials.ts';
import * as billing from './0009-billing.ts';
import * as billingReceipts from './0010-billing-receipts.ts';
import * as statusBeforeHidden from './0011-status-before-hidden.ts';
import * as slaDeadlineMilliseconds from './0012-sla-deadline-milliseconds.ts';
import * as review from './0013-review.ts';
import * as reviewNotifications from './0014-review-notifications.ts';
import * as shareLinks from './0015-share-links.ts';
import * as assetChecksums from './0016-asset-checksums.ts';
import * as boardVersion from './0017-board-version.ts';

/** Every migration, in order. Names sort lexically; never rename one that has shipped. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-project-timers': projectTimers,
  '0003-organizations-users': organizationsUsers,
  '0004-uploads': uploads,
  '0005-media-jobs': mediaJobs,
  '0006-rate-limits': rateLimits,
  '0007-session-version': sessionVersion,
  '0008-released-versions-bound-credentials': releasedVersions,
  '0009-billing': billing,
  '0010-billing-receipts': billingReceipts,
  '0011-status-before-hidden': statusBeforeHidden,
  '0012-sla-deadline-milliseconds': slaDeadlineMilliseconds,
  '0013-review': review,
  '0014-review-notifications': reviewNotifications,
  '0015-share-links': shareLinks,
  '0016-asset-checksums': assetChecksums,
  '0017-board-version': boardVersion,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export function migrator(db: Db): Migrator {
  return new Migrator({ db, provider });
}

/**
 * Whether the database already records exactly these migrations, in one query. Kysely's migrator
 * checks its tables through a whole-catalog introspection and a lock first: 0.3 s of every start
 * with nothing to do (issue 14). Anything else (no table yet, a migration missing, one this
 * code does not know) is left to the migrator, which applies or refuses as before.
 */
async function upToDate(db: Db): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = rows.map((row) => row.name).sort();
    const names = Object.keys(MIGRATIONS).sort();
    return applied.length === names.length && applied.every((name, i) => name === names[i]);
  } catch {
    return false;
  }
}

/** Brings the schema to the latest version; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<void> {
  if (await upToDate(db)) {
    startupMark('migrations');
    return;
  }
  const { error, results } = await migrator(db).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  startupMark('migrations');
}
