import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Safe upgrades of an embedded installation (issue 32). The migrations a start may run change the
 * embedded database in place; an automatic snapshot taken just before lets an operator go back to
 * the release they came from (`npm run restore -- --before-upgrade`).
 *
 * Which migrations the database has is known only once it is open, but a consistent copy of
 * PGlite's files is only possible while nothing has them open. So each start records the
 * migrations it left the database with (MIGRATIONS_FILE, beside `db/`); a start whose code has
 * other migrations than those recorded (an upgrade, or a first start after one of the releases
 * from before this file) copies `db/` before opening it. Once open, the migrations that will run
 * are written into the snapshot; a snapshot for which none ran is removed again.
 */

/** The migrations the database was left with by the last start that migrated it (JSON). */
export const MIGRATIONS_FILE = 'migrations.json';
/** The snapshot taken before the last upgrade: `db/` as it was, and SNAPSHOT_FILE. */
export const SNAPSHOT_DIR = 'before-upgrade';
const SNAPSHOT_FILE = 'snapshot.json';

export interface UpgradeSnapshot {
  takenAt: string;
  /** The migrations the database had (null: a release from before MIGRATIONS_FILE, not recorded). */
  migrationsBefore: string[] | null;
  /** The migrations the upgrade ran, in order (written once the database is open). */
  migrationsRun: string[];
}

async function recordedMigrations(dataDir: string): Promise<string[] | null> {
  try {
    const recorded = JSON.parse(await readFile(join(dataDir, MIGRATIONS_FILE), 'utf8')) as { migrations?: unknown };
    return Array.isArray(recorded.migrations) ? recorded.migrations.map(String) : null;
  } catch {
    return null;
  }
}

function same(a: readonly string[], b: readonly string[]): boolean {
  const sorted = [...b].sort();
  return a.length === b.length && [...a].sort().every((name, i) => name === sorted[i]);
}

export class SnapshotFailedError extends Error {}

/** Directories 0700 and files 0600 under `dir` (a copy keeps its source's modes: PGlite's are 0666). */
async function ownerOnly(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await ownerOnly(path);
    else await chmod(path, 0o600);
  }
}

/**
 * Copies `dataDir/db` to `dataDir/before-upgrade/db` when this release's migrations differ from
 * the ones the database was left with; null when they are the same or there is no database yet.
 * Call it with the data directory locked and before the database opens. The copy is made beside
 * and renamed into place, replacing the previous upgrade's snapshot only once it is whole.
 */
export async function snapshotBeforeUpgrade(dataDir: string, migrations: readonly string[]): Promise<UpgradeSnapshot | null> {
  const db = join(dataDir, 'db');
  if (!existsSync(join(db, 'PG_VERSION'))) return null;
  const before = await recordedMigrations(dataDir);
  if (before && same(before, migrations)) return null;
  const snapshot: UpgradeSnapshot = { takenAt: new Date().toISOString(), migrationsBefore: before, migrationsRun: [] };
  const draft = join(dataDir, `${SNAPSHOT_DIR}.partial-${process.pid}`);
  try {
    await rm(draft, { recursive: true, force: true });
    await mkdir(draft, { mode: 0o700 });
    await cp(db, join(draft, 'db'), { recursive: true, preserveTimestamps: true });
    await ownerOnly(join(draft, 'db'));
    await writeFile(join(draft, SNAPSHOT_FILE), JSON.stringify(snapshot, null, 2), { mode: 0o600 });
    await rm(join(dataDir, SNAPSHOT_DIR), { recursive: true, force: true });
    await rename(draft, join(dataDir, SNAPSHOT_DIR));
  } catch (error) {
    await rm(draft, { recursive: true, force: true }).catch(() => undefined);
    const reason = (error as NodeJS.ErrnoException).code === 'ENOSPC' ? 'the disk is full' : (error as Error).message;
    throw new SnapshotFailedError(
      `Could not save a copy of the database before upgrading it (${reason}). Nothing was changed: free some space in ${dataDir} (the copy needs as much as ${db}) and start again.`,
      { cause: error },
    );
  }
  return snapshot;
}

/** Writes which migrations the upgrade runs into its snapshot, or removes the snapshot when none do. */
export async function recordUpgrade(dataDir: string, snapshot: UpgradeSnapshot, migrationsRun: readonly string[]): Promise<void> {
  if (migrationsRun.length === 0) {
    await rm(join(dataDir, SNAPSHOT_DIR), { recursive: true, force: true });
    return;
  }
  snapshot.migrationsRun = [...migrationsRun];
  await writeFile(join(dataDir, SNAPSHOT_DIR, SNAPSHOT_FILE), JSON.stringify(snapshot, null, 2), { mode: 0o600 });
}

/** Records the migrations the database has now (after a start migrated it). */
export async function recordMigrations(dataDir: string, migrations: readonly string[]): Promise<void> {
  const file = join(dataDir, MIGRATIONS_FILE);
  await writeFile(`${file}.${process.pid}`, JSON.stringify({ migrations }, null, 2), { mode: 0o600 });
  await rename(`${file}.${process.pid}`, file);
}

export class NoSnapshotError extends Error {}

export interface RollBack {
  snapshot: UpgradeSnapshot;
  /** Where the upgraded database was moved (kept until the operator deletes it). */
  upgradedKeptAt: string;
}

/**
 * Puts the snapshot taken before the last upgrade back in place of `db/` (the server stopped and
 * the directory locked by the caller). The upgraded database is moved aside, not deleted.
 * Renames only: either the old database is back whole or nothing moved.
 */
export async function rollBackUpgrade(dataDir: string): Promise<RollBack> {
  const dir = join(dataDir, SNAPSHOT_DIR);
  let snapshot: UpgradeSnapshot;
  try {
    snapshot = JSON.parse(await readFile(join(dir, SNAPSHOT_FILE), 'utf8')) as UpgradeSnapshot;
  } catch {
    throw new NoSnapshotError(
      `There is no snapshot from before an upgrade in ${dataDir} (${SNAPSHOT_DIR}/): nothing to roll back to. (A snapshot is taken when a start upgrades the embedded database.)`,
    );
  }
  if (!existsSync(join(dir, 'db', 'PG_VERSION'))) throw new NoSnapshotError(`The snapshot in ${dir} has no database: it cannot be rolled back to.`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const upgradedKeptAt = join(dataDir, `db.upgraded-${stamp}`);
  const db = join(dataDir, 'db');
  if (existsSync(db)) await rename(db, upgradedKeptAt);
  try {
    await rename(join(dir, 'db'), db);
  } catch (error) {
    if (existsSync(upgradedKeptAt)) await rename(upgradedKeptAt, db);
    throw error;
  }
  // The next start of this (newer) release would upgrade the database again, with a new snapshot;
  // the previous release ignores the file.
  await rm(join(dataDir, MIGRATIONS_FILE), { force: true });
  await rm(dir, { recursive: true, force: true });
  return { snapshot, upgradedKeptAt };
}
