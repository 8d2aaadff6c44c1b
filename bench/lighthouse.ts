/**
 * bench/lighthouse (issue 34 "Sign-in page"): Lighthouse 12.2.3's desktop performance audit of
 * `/login` and of the minimal React page of bench/first-paint (one button, React DOM), both built
 * by the same Vite and served by the same server, with Debian's Chromium, alternating,
 * BENCH_LIGHTHOUSE_RUNS each (default 3). Lighthouse runs its own Chromium per audit (cold
 * cache, simulated desktop link and CPU, its defaults).
 *
 * Lighthouse is run with `npx lighthouse@12.2.3` (from the npm registry on the first run, then
 * npm's cache), not installed with the project: it is 146 packages the product and its tests do
 * not need, and the issue names this exact release.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { buildMinimalReactPage } from './first-paint.ts';
import { startServer } from './first-load.ts';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const LIGHTHOUSE = 'lighthouse@12.2.3';

interface Audit {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  speedIndexMs: number;
  cls: number;
  unusedJsBytes: number;
}

/** One Lighthouse desktop performance audit of `url`. */
async function audit(url: string, outDir: string, name: string): Promise<Audit> {
  const output = join(outDir, `${name}.json`);
  const args = [
    '--yes',
    LIGHTHOUSE,
    url,
    '--preset=desktop',
    '--only-categories=performance',
    '--output=json',
    `--output-path=${output}`,
    '--quiet',
    `--chrome-flags=${CHROMIUM_ARGS.join(' ')}`,
  ];
  const child = spawn('npx', args, {
    env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`lighthouse ${url} exited with ${code}: ${stderr.slice(-2000)}`);
  const report = JSON.parse(await readFile(output, 'utf8')) as {
    categories: { performance: { score: number } };
    audits: Record<string, { numericValue?: number; details?: { overallSavingsBytes?: number } }>;
    runWarnings: string[];
  };
  if (report.runWarnings.length) throw new Error(`lighthouse ${url}: ${report.runWarnings.join(' ')}`);
  const value = (id: string) => report.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round(report.categories.performance.score * 100),
    fcpMs: Math.round(value('first-contentful-paint')),
    lcpMs: Math.round(value('largest-contentful-paint')),
    tbtMs: Math.round(value('total-blocking-time')),
    speedIndexMs: Math.round(value('speed-index')),
    cls: value('cumulative-layout-shift'),
    unusedJsBytes: report.audits['unused-javascript']?.details?.overallSavingsBytes ?? 0,
  };
}

function spread(values: number[]): [number, number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[0]!, sorted[Math.floor(sorted.length / 2)]!, sorted.at(-1)!];
}

export async function benchLighthouse(): Promise<Record<string, unknown>> {
  const app = resolve(process.env.FIRST_LOAD_DIR ?? 'dist');
  const minimal = await buildMinimalReactPage();
  const servers = { app: await startServer(app), minimal: await startServer(minimal) };
  const outDir = await mkdtemp(join(tmpdir(), 'cutdesk-bench-lighthouse-'));
  try {
    const runs = { login: [] as Audit[], minimal: [] as Audit[] };
    for (let run = 0; run < RUNS; run++) {
      runs.minimal.push(await audit(`${servers.minimal.base}/`, outDir, `minimal-${run}`));
      runs.login.push(await audit(`${servers.app.base}/login`, outDir, `login-${run}`));
      process.stderr.write(`lighthouse round ${run + 1}: /login ${runs.login.at(-1)!.score}, minimal ${runs.minimal.at(-1)!.score}\n`);
    }
    const figures = (page: Audit[]) => ({
      'performance score, min / median / max (goal ≥ 95 for /login)': spread(page.map((one) => one.score)),
      'first contentful paint, ms': spread(page.map((one) => one.fcpMs)),
      'largest contentful paint, ms': spread(page.map((one) => one.lcpMs)),
      'total blocking time, ms': spread(page.map((one) => one.tbtMs)),
      'speed index, ms': spread(page.map((one) => one.speedIndexMs)),
      'cumulative layout shift': spread(page.map((one) => one.cls)),
      'unused JavaScript Lighthouse could save, bytes': spread(page.map((one) => one.unusedJsBytes)),
    });
    return {
      lighthouse: LIGHTHOUSE,
      runs: RUNS,
      '/login': figures(runs.login),
      'minimal React page': figures(runs.minimal),
      'largest contentful paint, /login ÷ minimal per round': spread(runs.login.map((one, i) => Math.round((one.lcpMs / runs.minimal[i]!.lcpMs) * 100) / 100)),
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
    await servers.app.stop();
    await servers.minimal.stop();
  }
}

if (import.meta.main) console.log(JSON.stringify(await benchLighthouse(), null, 2));
