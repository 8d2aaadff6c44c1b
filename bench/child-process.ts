import { spawn } from 'node:child_process';

/**
 * Runs one measurement in its own Node process (so its peak memory is its own): `script` with
 * `arg` as JSON, killed after `timeoutMs`. Answers the exit code, the last line of its output
 * (where the child prints its figures) and the tail of its stderr.
 */
export function runChild(script: string, arg: unknown, timeoutMs: number): Promise<{ code: number | null; line: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [script, JSON.stringify(arg)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, line: stdout.trim().split('\n').pop() ?? '', stderr });
    });
  });
}
