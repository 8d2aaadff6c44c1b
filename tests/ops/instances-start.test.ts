import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Db } from '../../server/db/connect.ts';
import { MIGRATIONS, migrateToLatest } from '../../server/migrations/index.ts';
import { DEMO_ACCOUNTS, isEmpty, seedDemo } from '../../server/seed/demo.ts';
import { throwawayDatabase } from '../server/harness.ts';

const SERVER_URL = process.env.TEST_DATABASE_URL ?? null;

/**
 * Issue 15, several instances: instances of a fleet start at the same moment on one new
 * PostgreSQL database (a deployment, a rolling restart). Each does what `npm start` does before
 * it listens (server/main.ts): migrate, then seed the demo data when there are no users. The
 * migrations run once, under the migrator's lock (the others wait and find them applied), and
 * the demo data is seeded once; every instance starts.
 */
describe.skipIf(!SERVER_URL)('instances starting together on one new database (PostgreSQL)', () => {
  let target: { url: string; drop: () => Promise<void> };
  const instances: Db[] = [];

  beforeAll(async () => {
    target = await throwawayDatabase(SERVER_URL!);
    // Each instance has its own connection pool, as separate processes would.
    for (let i = 0; i < 3; i += 1) instances.push(await connectDatabase({ databaseUrl: target.url, dataDir: '' }));
  });
  afterAll(async () => {
    await Promise.all(instances.map((db) => db.destroy()));
    await target?.drop();
  });

  it('migrate once and seed the demo data once, and every instance starts', async () => {
    const started = await Promise.allSettled(
      instances.map(async (db) => {
        await migrateToLatest(db);
        return (await isEmpty(db)) ? seedDemo(db, 'demo-password') : null;
      }),
    );
    expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started'))).toEqual(['started', 'started', 'started']);
    const passwords = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
    // One instance seeded (and prints the password); the others found the users it made.
    expect(passwords.filter((password) => password === 'demo-password')).toHaveLength(1);
    expect(passwords.filter((password) => password === null)).toHaveLength(2);

    const db = instances[0]!;
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(MIGRATIONS).sort());
    const users = await db.selectFrom('users').select('email').execute();
    expect(users.map((user) => user.email).sort()).toEqual(expect.arrayContaining(DEMO_ACCOUNTS.map((account) => account.email)));
    expect(new Set(users.map((user) => user.email.toLowerCase())).size).toBe(users.length);
    const organizations = await db.selectFrom('organizations').select('name').execute();
    expect(new Set(organizations.map((organization) => organization.name)).size).toBe(organizations.length);
  }, 120_000);
});
