import { DataDirLockedError, lockDataDir } from '../server/data-dir-lock.ts';
import { processesUsing } from '../server/ops/upgrade/served-elsewhere.ts';
import { NoSnapshotError, rollBackUpgrade } from '../server/ops/upgrade/snapshot.ts';

/**
 * `npm run restore -- --before-upgrade`: the embedded database back as it was before the last
 * upgrade (server/ops/upgrade/snapshot.ts), with no server running on the directory. Returns the
 * exit code: 0 rolled back, 1 failed, 2 refused (a server runs, no snapshot).
 */
export async function restoreBeforeUpgrade(dataDir: string): Promise<number> {
  let lock;
  try {
    lock = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    console.error(`${error.message.split('\n')[0]}\nStop it first: the database cannot be swapped under a running server.`);
    return 2;
  }
  try {
    const others = processesUsing(`${dataDir}/db`);
    if (others.length > 0) {
      console.error(`Process ${others.map((other) => other.pid).join(', ')} has the database in ${dataDir}/db open (a server still running?). Stop it first.`);
      return 2;
    }
    const { snapshot, upgradedKeptAt } = await rollBackUpgrade(dataDir);
    console.log(
      `Rolled back ${dataDir}/db to the copy taken ${snapshot.takenAt}, before the migrations ${snapshot.migrationsRun.join(', ') || '(none recorded)'}.`,
    );
    console.log(`The upgraded database is kept in ${upgradedKeptAt}; delete it once the rollback is confirmed.`);
    console.log('Start the release you upgraded from now (starting this one again would upgrade the database again).');
    console.log('Objects uploaded since the upgrade stay in the object store; the rolled-back database does not list them.');
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return error instanceof NoSnapshotError ? 2 : 1;
  } finally {
    lock.release();
  }
}
