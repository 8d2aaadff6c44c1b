import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config.ts';

/**
 * The mark `npm run move-data` leaves in a data directory it moved (issue 15): the server refuses
 * to start on what was moved (the embedded database, and the embedded objects when they were
 * moved too), so nobody keeps writing to the old copy by mistake. `--force` (or CUTDESK_FORCE=1)
 * starts it anyway, for those who mean it.
 */
export const MOVED_MARKER = 'MOVED.json';

export interface MovedMarker {
  movedAt: string;
  /** Where the database went, password left out. */
  database: string;
  /** Where the objects went (`endpoint/bucket`), or null when they stayed in this directory. */
  objects: string | null;
}

export function writeMovedMarker(dataDir: string, marker: MovedMarker): void {
  writeFileSync(join(dataDir, MOVED_MARKER), `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o600 });
}

export function readMovedMarker(dataDir: string): MovedMarker | null {
  const file = join(dataDir, MOVED_MARKER);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as MovedMarker) : null;
}

/** A connection string without its password, for the marker and the report. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

/**
 * Why the server must not start on `dataDir` with these settings, or null: the embedded database
 * was moved and this start would use it, or the objects were moved and this start would serve
 * the embedded store.
 */
export function movedStartRefusal(dataDir: string, uses: { embeddedDatabase: boolean; embeddedStore: boolean }): string | null {
  const marker = readMovedMarker(dataDir);
  if (!marker) return null;
  const what = uses.embeddedDatabase
    ? `its database was moved to ${marker.database}`
    : uses.embeddedStore && marker.objects
      ? `its objects were moved to ${marker.objects}`
      : null;
  if (!what) return null;
  return `The data directory ${dataDir} was moved on ${marker.movedAt}: ${what}. Start the server with DATABASE_URL${marker.objects ? ' and S3_ENDPOINT' : ''} pointing there (see ${join(dataDir, MOVED_MARKER)}), or start it here anyway with --force (CUTDESK_FORCE=1).`;
}

/** `movedStartRefusal` for a server started with `config`. */
export function movedStartRefusalFor(config: Pick<Config, 'dataDir' | 'databaseUrl' | 'storage'>): string | null {
  return movedStartRefusal(config.dataDir, { embeddedDatabase: !config.databaseUrl, embeddedStore: config.storage.mode === 'embedded' });
}

/** `npm start -- --force` or CUTDESK_FORCE=1: start on a moved directory all the same. */
export function startForced(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.includes('--force') || env.CUTDESK_FORCE === '1';
}
