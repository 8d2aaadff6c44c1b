import './gc-flags.ts';
import { existsSync } from 'node:fs';
import { flushCompileCache } from 'node:module';
import { startupMark, printStartupTrace } from './startup-trace.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError, lockDataDir, type DataDirLock } from './data-dir-lock.ts';
import { closeDataDirToOthers } from './data-dir-modes.ts';
import type { Db } from './db/connect.ts';
import { movedStartRefusalFor, startForced } from './ops/move-data/marker.ts';
import { portTaken, processesUsing } from './ops/upgrade/served-elsewhere.ts';
import { MIGRATIONS_FILE, recordMigrations, recordUpgrade, SnapshotFailedError, snapshotBeforeUpgrade, type UpgradeSnapshot } from './ops/upgrade/snapshot.ts';
import { migrationNames } from './migrations/names.ts';
import { startFailureMessage } from './storage/disk-full.ts';

class MovedDirectoryError extends Error {}
/** Another server (of this release or an older one) serves what this start would change. */
class ServedElsewhereError extends Error {}

/** How long shutdown may take before the process exits anyway (orchestrators wait about 30 s). */
const SHUTDOWN_GRACE_MS = 25_000;

let lock: DataDirLock | null = null;
let db: Db | null = null;
/** The data directory, for the message of a start that failed (a full disk names it). */
let dataDir = '';

/** `npm start`: configuration, database, migrations, demo data on first start, listen. */
async function main(): Promise<void> {
  startupMark('modules');
  const config = loadConfig();
  dataDir = config.dataDir;
  // The embedded database and object store live in DATA_DIR and neither locks its files: a
  // second server on the same directory would corrupt them, so it refuses to start.
  // A directory `npm run move-data` moved: its embedded copy must not be written to again by mistake.
  const moved = movedStartRefusalFor(config);
  if (moved && !startForced(process.argv, process.env)) throw new MovedDirectoryError(moved);
  if (moved) console.warn(`Starting anyway (--force): ${moved}`);
  if (!config.databaseUrl || config.storage.mode === 'embedded') lock = lockDataDir(config.dataDir);
  // Issue 32: nothing is migrated while another server serves the database. Releases from before
  // the lock file take no lock, but a server on the embedded database holds its files open; and a
  // port already taken would stop this start only after the migrations.
  await refuseIfServedElsewhere(config);
  if (lock) {
    const octal = (mode: number) => `0${mode.toString(8)}`;
    for (const { dir, from, to } of closeDataDirToOthers(config.dataDir))
      console.log(`Closed ${dir} to other accounts of this machine (${octal(from)} → ${octal(to)}).`);
  }
  // Embedded: a copy of the database before this release's migrations change it (rolled back to
  // with `npm run restore -- --before-upgrade`), taken while nothing has its files open.
  let snapshot: UpgradeSnapshot | null = null;
  if (!config.databaseUrl) snapshot = await snapshotBeforeUpgrade(config.dataDir, migrationNames());
  // Issue 14: embedded PGlite opens on a thread of its own (0.4–0.7 s of PostgreSQL's start)
  // while this thread loads the server's modules and builds the app; statements wait for it.
  // It is closed after the app.
  // The thread starts first thing, before the other modules are asked for: loaded beside them,
  // its light module waited its turn behind theirs (the thread started 130 ms later).
  const pglite = config.databaseUrl ? undefined : await (await import('./db/pglite-bridge.ts')).startPgliteThread(config);
  // A database thread that dies leaves every request failing: stop, so a supervisor starts it again.
  void pglite?.ended.then((error) => {
    console.error(`The embedded database stopped: ${error.message}. Stopping the server.`);
    lock?.release();
    process.exit(1);
  });
  const opening = import('./db/connect.ts').then(({ openDatabase }) =>
    openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, thread: true, pglite }),
  );
  opening.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  const [{ buildApp }, { migrateToLatest }, { DEMO_ACCOUNTS, isEmpty, seedDemo }, { seedDemoMedia }, { connectStorage }, { listenStore }] = await Promise.all([
    import('./app.ts'),
    import('./migrations/index.ts'),
    import('./seed/demo.ts'),
    import('./seed/demo-media.ts'),
    import('./storage/setup.ts'),
    import('./storage/store-listener.ts'),
  ]);
  startupMark('modules loaded');
  const database = await opening;
  db = database.db;
  // Nothing reads the database while the app is built; the jobs plugin starts the background
  // jobs and the media worker once the server listens, after the migrations below.
  const app = await buildApp({ config, db, jobs: true });
  startupMark('app');
  await database.opened;
  const ran = await migrateToLatest(db, (message) => console.log(message));
  if (snapshot) {
    await recordUpgrade(config.dataDir, snapshot, ran);
    if (ran.length > 0)
      console.log(
        `  A copy of the database from before the upgrade is in ${config.dataDir}/before-upgrade (undo: stop the server, then npm run restore -- --before-upgrade).`,
      );
  }
  if (!config.databaseUrl && (ran.length > 0 || snapshot || !existsSync(`${config.dataDir}/${MIGRATIONS_FILE}`)))
    await recordMigrations(config.dataDir, migrationNames());
  let demoPassword: string | null = null;
  if (config.seed === 'demo' && (await isEmpty(app.db))) demoPassword = await seedDemo(app.db, config.demoPassword);
  startupMark('seed');

  const address = await app.listen({ port: config.port, host: config.host });
  startupMark('listen');
  // Issue 14: the embedded store on a port of its own too (S3_PORT, by default PORT + 1), where
  // browsers upload with all six connections. A busy default port only costs that: /s3 serves.
  let storeAddress: string | null = null;
  const storeListener = config.storage.mode === 'embedded' ? config.storage.storeListener : null;
  if (storeListener) {
    try {
      const storePort = await listenStore(app, { host: config.host, port: storeListener.port });
      const store = new URL(address);
      store.port = String(storePort);
      storeAddress = store.origin;
    } catch (error) {
      if (storeListener.explicit)
        throw new Error(`S3_PORT ${storeListener.port}: the embedded store cannot listen there (${(error as Error).message})`, { cause: error });
      app.log.warn(
        { port: storeListener.port, err: error },
        "the embedded store's own port is busy: browsers upload through /s3 (set S3_PORT to choose another port)",
      );
    }
  }
  printStartupTrace();
  // What Node compiled for this start (scripts/start.ts enables the cache) is kept for the next.
  flushCompileCache();
  // The embedded object store is served by this server: the storage plugin connects it once the
  // server listens (and the jobs wait for it). A store that cannot be reached stops the start.
  await connectStorage(app);
  // Issue 13: the demo's review videos are made in the background (ffmpeg takes a few seconds),
  // so the first start answers at once; the demo projects show "being processed" meanwhile.
  // DEMO_VIDEOS=off keeps the demo without them (the e2e server: its specs check the seeded states).
  if (config.seed === 'demo' && process.env.DEMO_VIDEOS !== 'off') {
    void seedDemoMedia(app.ctx, { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) }).catch((error: unknown) =>
      app.log.error({ err: error }, 'demo videos could not be made'),
    );
  }
  /**
   * SIGTERM/SIGINT: close the app. Its jobs plugin first (preClose) stops the periodic jobs
   * (waiting for a run in progress) and the media worker (running jobs are aborted and handed
   * back to the queue, their leases released, so another instance takes them at once); then the
   * server stops accepting connections, answers 503 to new requests on open keep-alive
   * connections, finishes the requests in flight and the background tasks they started (mails);
   * then the storage clients and the database close (their plugins' onClose, in reverse order of
   * registration), and the data directory is unlocked. Past SHUTDOWN_GRACE_MS the process exits
   * anyway. Listened for before the banner below says the server runs: a supervisor that stops
   * it the moment it reads the banner must find the handlers in place (a test did, and the
   * default action killed the process).
   */
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // GET /api/v1/ready answers 503 from now on: balancers stop sending new requests.
    app.readiness.stop();
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    setTimeout(() => {
      app.log.error({ graceMs: SHUTDOWN_GRACE_MS }, 'shutdown took too long; exiting now');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    try {
      await app.close();
      await db?.destroy();
      lock?.release();
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  const url = config.publicUrl.includes(`:${config.port}`) || config.port === 0 ? address.replace('127.0.0.1', 'localhost') : config.publicUrl;

  const lines = [
    '',
    `  Cutdesk is running at ${url}`,
    `  Data directory: ${config.dataDir}`,
    `  Database: ${config.databaseUrl ? 'PostgreSQL server' : 'embedded PGlite'}; mail: ${config.smtpUrl ? 'SMTP' : `outbox in ${config.dataDir}/outbox`}`,
    `  Object storage: ${config.storage.mode === 'embedded' ? `embedded at /s3${storeAddress ? ` and ${storeAddress.replace('127.0.0.1', 'localhost')} (S3 clients: either endpoint)` : ''}, files in ${config.dataDir}/s3` : config.storage.endpoint}, bucket ${config.storage.bucket}`,
  ];
  if (config.seed === 'demo') {
    lines.push('  Demo accounts:');
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.role.padEnd(10)} ${account.email}`);
    // Shown once on the console by design (README): it is the only way to learn a generated one.
    if (demoPassword)
      lines.push(`  Demo password: ${demoPassword}${config.demoPassword ? '' : '  (generated now and shown once; set DEMO_PASSWORD to choose it)'}`);
    else lines.push('  Demo password: the one shown on the first start (or DEMO_PASSWORD then).');
  }
  console.log(lines.join('\n') + '\n');
}

/** Throws ServedElsewhereError naming the processes on the embedded database, or the taken port. */
async function refuseIfServedElsewhere(config: ReturnType<typeof loadConfig>): Promise<void> {
  if (!config.databaseUrl) {
    const others = processesUsing(`${config.dataDir}/db`);
    if (others.length > 0) {
      const names = others.map((other) => `process ${other.pid} (${other.command.slice(0, 120)})`).join('; ');
      throw new ServedElsewhereError(
        `Another process has the embedded database in ${config.dataDir}/db open: ${names}.\n` +
          'Stop it first (an older release of Cutdesk still running?): this start would migrate the database under it, and two servers on one embedded database would corrupt it.',
      );
    }
  }
  if (await portTaken(config.host, config.port)) {
    throw new ServedElsewhereError(
      `Port ${config.port} on ${config.host} is already in use (another Cutdesk server still running, or another program).\n` +
        'Stop it first, or give this server another PORT. Nothing was changed: the database is migrated only once the port is free.',
    );
  }
}

main().catch(async (error: unknown) => {
  const known =
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof MovedDirectoryError ||
    error instanceof ServedElsewhereError ||
    error instanceof SnapshotFailedError ||
    (error instanceof Error && error.name === 'NewerDatabaseError');
  console.error(known ? error.message : startFailureMessage(error, dataDir));
  await db?.destroy().catch(() => undefined);
  lock?.release();
  process.exit(1);
});
