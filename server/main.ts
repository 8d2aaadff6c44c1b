import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import { migrateToLatest } from './migrations/index.ts';
import { DEMO_ACCOUNTS, isEmpty, seedDemo } from './seed/demo.ts';
import { startBackgroundJobs } from './jobs.ts';
import { connectStorage } from './storage/setup.ts';
import { startMediaWorker } from './media/worker.ts';

/** `npm start`: configuration, database, migrations, demo data on first start, listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = await connectDatabase(config);
  await migrateToLatest(db);
  let demoPassword: string | null = null;
  if (config.seed === 'demo' && (await isEmpty(db))) demoPassword = await seedDemo(db, config.demoPassword);

  const app = await buildApp({ config, db });
  const stopJobs = startBackgroundJobs(app);
  const address = await app.listen({ port: config.port, host: config.host });
  // The embedded object store is served by this server: the server reaches it once listening.
  await connectStorage(app);
  // Media jobs read and write objects: they start once the store is reachable.
  const stopMedia = startMediaWorker(app);
  const url = config.publicUrl.includes(`:${config.port}`) || config.port === 0 ? address.replace('127.0.0.1', 'localhost') : config.publicUrl;

  const lines = [
    '',
    `  Cutdesk is running at ${url}`,
    `  Data directory: ${config.dataDir}`,
    `  Database: ${config.databaseUrl ? 'PostgreSQL server' : 'embedded PGlite'}; mail: ${config.smtpUrl ? 'SMTP' : `outbox in ${config.dataDir}/outbox`}`,
    `  Object storage: ${config.storage.mode === 'embedded' ? `embedded at /s3, files in ${config.dataDir}/s3` : config.storage.endpoint}, bucket ${config.storage.bucket}`,
  ];
  if (config.seed === 'demo') {
    lines.push('  Demo accounts:');
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.role.padEnd(10)} ${account.email}`);
    if (demoPassword) lines.push(`  Demo password: ${demoPassword}${config.demoPassword ? '' : '  (generated now and shown once; set DEMO_PASSWORD to choose it)'}`);
    else lines.push('  Demo password: the one shown on the first start (or DEMO_PASSWORD then).');
  }
  console.log(lines.join('\n') + '\n');

  const stop = async () => {
    stopJobs();
    await stopMedia();
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
