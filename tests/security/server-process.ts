import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

export interface ServerProcess {
  child: ChildProcess;
  /** Everything written so far. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * `node server/main.ts` (or `entry`, e.g. the server's bundle) as a real process on `dataDir`
 * (no web app, no demo data, a free port).
 */
export function startServerProcess(dataDir: string, env: Record<string, string> = {}, entry = resolve('server/main.ts')): ServerProcess {
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      SEED: 'none',
      PORT: '0',
      WEB_DIR: join(dataDir, 'no-web'),
      LOG_LEVEL: 'info',
      MEDIA_CONCURRENCY: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => text, exited };
}

/** Waits for the start banner and returns the server's port. */
export async function portOf(server: ServerProcess, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = /Cutdesk is running at http:\/\/[^:]+:(\d+)/.exec(server.output());
    if (match) return Number(match[1]);
    if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.output()}`);
    if (Date.now() > deadline) throw new Error(`the server did not start: ${server.output()}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
