import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  /** Bytes received (answers with their headers). */
  throughput: { total: number };
  errors: number;
  non2xx: number;
  /** Answers by status class: `2xx`, `5xx`… */
  statusCodeStats?: Record<string, { count: number }>;
}

/** autocannon in a process of its own, so the load's parsing is not on the server's event loop. */
export function autocannon(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<AutocannonResult> {
  const headers = Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const args = [AUTOCANNON, '--json', '-c', String(options.connections), '-d', String(options.seconds), ...headers, url];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    proc.on('error', reject);
    proc.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(stdout.trim().split('\n').pop()!) as AutocannonResult) : reject(new Error(`autocannon exited ${code}: ${stderr}`)),
    );
  });
}
