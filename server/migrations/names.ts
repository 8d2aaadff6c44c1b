import { readdirSync } from 'node:fs';

/**
 * The names of this release's migrations, from their files (`0001-foundation.ts` is migration
 * `0001-foundation`), without loading them: a start compares them with the ones its embedded
 * database was left with before the database opens (server/ops/upgrade/snapshot.ts), while
 * loading the migrations and Kysely would hold up its start by ~0.15 s. A test checks they are
 * exactly MIGRATIONS' keys.
 */
export function migrationNames(): string[] {
  return readdirSync(import.meta.dirname)
    .filter((file) => /^\d{4}-[a-z0-9-]+\.ts$/.test(file))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
}
