import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the product keeps in DATA_DIR: the database, the objects, mails, the copy before an upgrade. */
const PRIVATE_DIRS = ['', 'db', 's3', 'outbox', 'before-upgrade'];

export interface ModeChange {
  dir: string;
  from: number;
  to: number;
}

/**
 * Closes DATA_DIR and the directories the product keeps in it to other accounts of the machine
 * (issue 32: an earlier release made `db/` and `s3/` 0755, world-readable). Like PostgreSQL, which
 * accepts a data directory of 0700 or 0750 only, access for the directory's group is left as it
 * is (an operator may have given it on purpose, to a backup agent's group); access for everyone
 * else is never on purpose. The directories only: what is inside a directory others cannot enter
 * is out of their reach, and walking every object would cost a large store's start minutes.
 * Returns what it changed (the start prints it).
 */
export function closeDataDirToOthers(dataDir: string): ModeChange[] {
  const changed: ModeChange[] = [];
  for (const name of PRIVATE_DIRS) {
    const dir = join(dataDir, name);
    try {
      const from = statSync(dir).mode & 0o777;
      if ((from & 0o007) === 0) continue;
      const to = from & ~0o007;
      chmodSync(dir, to);
      changed.push({ dir, from, to });
    } catch {
      // absent (made 0700 when it is made), or not ours to change: left as it is
    }
  }
  return changed;
}
