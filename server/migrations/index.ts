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
import * as impersonationTrail from './0018-impersonation-trail.ts';
import * as liveStreamTriggers from './0019-live-stream-triggers.ts';
import * as holidayCalendar from './0020-holiday-calendar.ts';
import * as sortKeys from './0021-sort-keys.ts';
import * as boardWatchesSortKeys from './0022-board-watches-sort-keys.ts';
import * as changeNotifications from './0023-change-notifications.ts';
import * as assetFolders from './0024-asset-folders.ts';
import * as assetSentChecksums from './0025-asset-sent-checksums.ts';
import * as assetFingerprints from './0026-asset-fingerprints.ts';

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
  '0018-impersonation-trail': impersonationTrail,
  '0019-live-stream-triggers': liveStreamTriggers,
  '0020-holiday-calendar': holidayCalendar,
  '0021-sort-keys': sortKeys,
  '0022-board-watches-sort-keys': boardWatchesSortKeys,
  '0023-change-notifications': changeNotifications,
  '0024-asset-folders': assetFolders,
  '0025-asset-sent-checksums': assetSentChecksums,
  '0026-asset-fingerprints': assetFingerprints,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export function migrator(db: Db): Migrator {
  return new Migrator({ db, provider });
}

export interface MigrationPlan {
  /** Migrations the database records, in order. */
  applied: string[];
  /** This release's migrations the database does not have yet, in the order they run. */
  pending: string[];
  /** Migrations the database records that this release does not know: a newer release ran them. */
  unknown: string[];
}

/**
 * What migrating would do, from one query (Kysely's migrator first introspects the whole catalog
 * and takes a lock: 0.3 s of every start with nothing to do, issue 14). No table yet: everything
 * is pending.
 */
export async function migrationPlan(db: Db): Promise<MigrationPlan> {
  let applied: string[] = [];
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    applied = rows.map((row) => row.name).sort();
  } catch {
    // no migration table: a new database
  }
  const names = Object.keys(MIGRATIONS).sort();
  return { applied, pending: names.filter((name) => !applied.includes(name)), unknown: applied.filter((name) => !(name in MIGRATIONS)) };
}

/** The database was migrated by a newer release than this one. */
export class NewerDatabaseError extends Error {
  override name = 'NewerDatabaseError';
}

/**
 * Brings the schema to the latest version; throws with the failing migration's error. `log`
 * hears which migrations will run before they do, and each one once applied (server/main.ts
 * prints them; an upgrade's operator sees what changed).
 */
export async function migrateToLatest(db: Db, log?: (message: string) => void): Promise<string[]> {
  const plan = await migrationPlan(db);
  if (plan.unknown.length > 0) {
    throw new NewerDatabaseError(
      `This database was migrated by a newer release of Cutdesk (migrations ${plan.unknown.join(', ')} are unknown to this one). ` +
        'Start the newer release, or undo its upgrade first: with the embedded database, `npm run restore -- --before-upgrade` while no server runs (docs/operations.md, "Upgrading").',
    );
  }
  if (plan.pending.length === 0) {
    startupMark('migrations');
    return [];
  }
  if (plan.applied.length > 0) log?.(`Migrating the database: ${plan.pending.length} migration(s) to apply: ${plan.pending.join(', ')}`);
  const { error, results } = await migrator(db).migrateToLatest();
  const ran = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  if (plan.applied.length > 0) for (const name of ran) log?.(`  applied migration ${name}`);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  startupMark('migrations');
  return ran;
}
