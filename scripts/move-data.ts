/**
 * npm run move-data -- --to-database postgres://… [--to-s3-endpoint URL --to-s3-bucket NAME [--to-s3-region R]] [--data-dir DIR]
 *
 * Moves an embedded installation (DATA_DIR, or --data-dir) to PostgreSQL and, when named, another
 * S3 bucket (credentials: MOVE_S3_ACCESS_KEY_ID / MOVE_S3_SECRET_ACCESS_KEY, else the AWS default
 * chain). Server code: server/ops/move-data/. Exit code 0 only when every row and object matched;
 * 2 when the move was refused (a server runs, the target is not empty, wrong arguments); 130/143
 * when Ctrl-C/SIGTERM stopped it (it says what happened and prints the command that resumes it).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../server/config.ts';
import { DataDirLockedError } from '../server/data-dir-lock.ts';
import { interruptedLines, resumeCommand } from '../server/ops/move-data/interrupted.ts';
import { isAbort } from '../server/ops/move-data/object-copy.ts';
import { MoveInterruptedError, MoveRefusedError, moveData } from '../server/ops/move-data/move.ts';
import { stderrProgress } from '../server/ops/move-data/progress-bar.ts';
import { reportLines } from '../server/ops/move-data/report.ts';

/** 128 + the signal's number, as a shell reports a process the signal ended. */
const EXIT_BY_SIGNAL = { SIGINT: 130, SIGTERM: 143 } as const;

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const toDatabase = flag('--to-database');
const s3Endpoint = flag('--to-s3-endpoint');
const s3Bucket = flag('--to-s3-bucket');
const dataDir = resolve(flag('--data-dir') ?? (process.env.DATA_DIR || './data'));
if (!toDatabase || !/^postgres(ql)?:\/\//.test(toDatabase) || Boolean(s3Endpoint) !== Boolean(s3Bucket)) {
  console.error(
    'Usage: npm run move-data -- --to-database postgres://user:password@host/db [--to-s3-endpoint https://… --to-s3-bucket NAME [--to-s3-region us-east-1]] [--data-dir ./data]',
  );
  process.exit(2);
}
// Before loadConfig, which would make a new directory its secrets (and the move an empty database).
if (!existsSync(join(dataDir, 'db'))) {
  console.error(`There is no embedded database in ${dataDir} (no ${join(dataDir, 'db')}): name the installation's data directory with --data-dir or DATA_DIR.`);
  process.exit(2);
}

const progress = stderrProgress();
// Ctrl-C or SIGTERM (issue 32): the move stops cleanly (the page of rows in flight lands, the
// object in flight's multipart upload is aborted), says so and how to resume. A second one stops at once.
const interruption = new AbortController();
let stoppedBy: string | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stoppedBy) {
      progress.done();
      console.error(
        `Stopped at once (${signal} again). Run the same command again to finish the move: it aborts what this run left in the target.\n${resumeCommand(args, dataDir, process.env).join('\n')}`,
      );
      process.exit(EXIT_BY_SIGNAL[signal]);
    }
    stoppedBy = signal;
    progress.done();
    console.error(`${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping after the rows or the object in flight (press Ctrl-C again to stop at once)…`);
    interruption.abort();
  });
}
try {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir });
  const report = await moveData({
    config,
    toDatabase,
    toS3:
      s3Endpoint && s3Bucket
        ? {
            endpoint: s3Endpoint,
            bucket: s3Bucket,
            region: flag('--to-s3-region') ?? process.env.AWS_REGION ?? 'us-east-1',
            forcePathStyle: process.env.MOVE_S3_FORCE_PATH_STYLE !== 'false',
            ...(process.env.MOVE_S3_ACCESS_KEY_ID && {
              accessKeyId: process.env.MOVE_S3_ACCESS_KEY_ID,
              secretAccessKey: process.env.MOVE_S3_SECRET_ACCESS_KEY ?? '',
            }),
          }
        : null,
    progress: progress.line,
    signal: interruption.signal,
  });
  progress.done();
  for (const line of reportLines(report, config.dataDir)) console.log(line);
  if (!report.ok) {
    console.error('The move did not verify: see the mismatches above. Run it again to finish it.');
    process.exit(1);
  }
  // Ends explicitly: PGlite closed after reopening an existing directory can keep the event loop
  // alive with nothing left to unref (seen with @electric-sql/pglite 0.5), and the move is done.
  process.exit(0);
} catch (error) {
  progress.done();
  if (stoppedBy && (error instanceof MoveInterruptedError || isAbort(error))) {
    const stopped = error instanceof MoveInterruptedError ? error : new MoveInterruptedError('a request to the target was under way');
    for (const line of interruptedLines(stopped, stoppedBy, resumeCommand(args, dataDir, process.env))) console.error(line);
    process.exit(EXIT_BY_SIGNAL[stoppedBy as keyof typeof EXIT_BY_SIGNAL]);
  }
  const refused = error instanceof MoveRefusedError || error instanceof DataDirLockedError || error instanceof ConfigError;
  if (error instanceof DataDirLockedError) console.error(`Cannot move while a server uses the data directory.\n${error.message}`);
  else console.error(refused ? error.message : error);
  process.exit(refused ? 2 : 1);
}
