import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_MIGRATIONS } from 'kysely/migration';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../server/db/connect.ts';
import { migrateToLatest, migrator } from '../../server/migrations/index.ts';
import { isEmpty, seedDemo } from '../../server/seed/demo.ts';

describe('migrations', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('keeps every row across a restart on the same data directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-migrate-'));
    dirs.push(dataDir);
    const first = await connectDatabase({ databaseUrl: null, dataDir });
    await migrateToLatest(first);
    await seedDemo(first, 'demo-password');
    const count = async (db: typeof first) => (await db.selectFrom('projects').select('id').execute()).length;
    const before = await count(first);
    await first.destroy();

    const second = await connectDatabase({ databaseUrl: null, dataDir });
    await migrateToLatest(second);
    expect(await isEmpty(second)).toBe(false);
    expect(await count(second)).toBe(before);
    await second.destroy();
  });

  it('runs down to nothing and up again', async () => {
    const db = await connectDatabase({ databaseUrl: null, dataDir: '', inMemory: true });
    await migrateToLatest(db);
    const down = await migrator(db).migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name).filter((n) => !n.startsWith('kysely_'))).toEqual([]);
    await migrateToLatest(db);
    expect((await db.introspection.getTables()).map((t) => t.name)).toContain('users');
    await db.destroy();
  });
});
