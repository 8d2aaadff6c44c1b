import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../server/db/connect.ts';
import { MIGRATIONS, migrator } from '../../server/migrations/index.ts';
import { migrationNames } from '../../server/migrations/names.ts';

const LATEST = Object.keys(MIGRATIONS).sort().at(-1)!;

interface Run {
  code: number | null;
  output: string;
}

/** `npm start`'s server on `dataDir`, until it says it runs (then stopped with SIGTERM) or exits. */
function start(dataDir: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve('server/main.ts')], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', SEED: 'none', LOG_LEVEL: 'warn', WEB_DIR: join(dataDir, 'no-web'), S3_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stopping = false;
    const hear = (chunk: Buffer) => {
      output += chunk.toString();
      // Once: a second SIGTERM stops a server at once, by design.
      if (!stopping && output.includes('Cutdesk is running at')) stopping = child.kill('SIGTERM');
    };
    child.stdout.on('data', hear);
    child.stderr.on('data', hear);
    child.once('exit', (code, signal) => done({ code, output: signal ? `${output}\n(ended by ${signal})` : output }));
  });
}

/** The migrations the embedded database in `dataDir` records. */
async function applied(dataDir: string): Promise<string[]> {
  const db = await connectDatabase({ databaseUrl: null, dataDir });
  try {
    return (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((row) => row.name);
  } finally {
    await db.destroy();
  }
}

/**
 * Issue 32, safe upgrades of an embedded installation: a data directory left by the previous
 * release (every migration but the latest, no record of them, no lock file) is upgraded by a
 * start of this one, which logs the migrations it runs and keeps a copy of the database from
 * before them; `npm run restore -- --before-upgrade` puts that copy back. Nothing is migrated
 * while another process (an older release takes no lock) has the database open or the port is
 * taken, and a database a newer release migrated is refused.
 */
describe('upgrading an embedded installation', () => {
  let dataDir: string;
  let holder: ChildProcess | undefined;
  let taken: Server | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-upgrade-'));
    // The previous release's database: the latest migration undone.
    const db = await connectDatabase({ databaseUrl: null, dataDir });
    try {
      const { error } = await migrator(db).migrateDown();
      if (error) throw error;
    } finally {
      await db.destroy();
    }
  }, 60_000);
  afterAll(async () => {
    holder?.kill('SIGKILL');
    taken?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('names the migrations of this release', () => {
    expect(migrationNames()).toEqual(Object.keys(MIGRATIONS).sort());
  });

  it('refuses to migrate while an older release has the database open, or the port is taken', async () => {
    // An older release: no lock file, the embedded database open in its process.
    holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { PGlite } from '@electric-sql/pglite'; const db = await PGlite.create(${JSON.stringify(join(dataDir, 'db'))}); await db.query('select 1'); console.log('open'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((ready) => holder!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('open') && ready()));
    const refused = await start(dataDir);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`Another process has the embedded database in ${dataDir}/db open: process ${holder.pid}`);
    expect(refused.output).not.toContain('at ');
    const closed = new Promise((r) => holder!.once('exit', r));
    holder.kill('SIGTERM');
    await closed;

    // A port taken (an older release on it, or another program): refused before migrating too.
    taken = createServer();
    await new Promise<void>((r) => taken!.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    const busy = await start(dataDir, { PORT: String(port), HOST: '127.0.0.1' });
    expect(busy.code).toBe(1);
    expect(busy.output).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    taken.close();

    expect(existsSync(join(dataDir, 'before-upgrade'))).toBe(false);
    expect(await applied(dataDir)).not.toContain(LATEST);
  }, 60_000);

  it('upgrades with a log of its migrations and a copy to roll back to; a newer database is refused', async () => {
    // The previous release made its directories 0755: the upgrade closes them to other accounts.
    chmodSync(join(dataDir, 'db'), 0o755);
    const upgrade = await start(dataDir);
    expect(upgrade.code, upgrade.output).toBe(0);
    expect(upgrade.output).toContain(`Closed ${join(dataDir, 'db')} to other accounts of this machine (0755 → 0750)`);
    expect(statSync(join(dataDir, 'db')).mode & 0o777).toBe(0o750);
    for (const dir of ['s3', 'before-upgrade', 'before-upgrade/db', 'before-upgrade/db/base']) expect(statSync(join(dataDir, dir)).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'before-upgrade/db/PG_VERSION')).mode & 0o777).toBe(0o600);
    expect(upgrade.output).toContain(`Migrating the database: 1 migration(s) to apply: ${LATEST}`);
    expect(upgrade.output).toContain(`applied migration ${LATEST}`);
    expect(upgrade.output).toContain(`A copy of the database from before the upgrade is in ${dataDir}/before-upgrade`);
    const snapshot = JSON.parse(await readFile(join(dataDir, 'before-upgrade', 'snapshot.json'), 'utf8')) as {
      migrationsBefore: unknown;
      migrationsRun: string[];
    };
    expect(snapshot).toMatchObject({ migrationsBefore: null, migrationsRun: [LATEST] });
    expect(JSON.parse(await readFile(join(dataDir, 'migrations.json'), 'utf8'))).toEqual({ migrations: Object.keys(MIGRATIONS).sort() });
    expect(await applied(dataDir)).toContain(LATEST);

    // A start with nothing to migrate copies nothing and keeps the snapshot.
    const again = await start(dataDir);
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toContain('Migrating the database');
    expect(existsSync(join(dataDir, 'before-upgrade', 'db'))).toBe(true);

    // This release on a database a newer one migrated: refused, with the way back.
    const db = await connectDatabase({ databaseUrl: null, dataDir });
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-release', '2027-01-01T00:00:00Z')`.execute(db);
    await db.destroy();
    const newer = await start(dataDir);
    expect(newer.code).toBe(1);
    expect(newer.output).toContain('This database was migrated by a newer release of Cutdesk (migrations 9999-from-a-newer-release are unknown to this one)');
    expect(newer.output).toContain('npm run restore -- --before-upgrade');
  }, 90_000);

  it('rolls back to the copy from before the upgrade', async () => {
    const restore = (): Promise<Run> =>
      new Promise((done) => {
        const child = spawn(process.execPath, [resolve('scripts/restore.ts'), '--before-upgrade', '--data-dir', dataDir], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('exit', (code) => done({ code, output }));
      });
    const rolledBack = await restore();
    expect(rolledBack.code, rolledBack.output).toBe(0);
    expect(rolledBack.output).toContain(`before the migrations ${LATEST}`);
    const names = await applied(dataDir);
    expect(names).toEqual(Object.keys(MIGRATIONS).sort().slice(0, -1));
    expect(existsSync(join(dataDir, 'before-upgrade'))).toBe(false);
    // Once: there is no second copy to go back to.
    const twice = await restore();
    expect(twice.code).toBe(2);
    expect(twice.output).toContain('There is no snapshot from before an upgrade');
  }, 60_000);
});
