/**
 * Chromium's processes as /proc sees them, for the browser benches (bench/zip-browser,
 * bench/download-ceiling): the processes under Playwright's browser, their CPU seconds (by
 * thread too) and their resident and private memory.
 */
import { readdir, readFile } from 'node:fs/promises';

export interface Proc {
  pid: number;
  type: string;
  cmdline: string;
}

export async function descendants(rootPid: number): Promise<Proc[]> {
  const parents = new Map<number, number>();
  const cmdlines = new Map<number, string>();
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1] ?? 0);
    parents.set(pid, ppid);
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    cmdlines.set(pid, cmdline.replace(/\0/g, ' '));
  }
  const out: Proc[] = [];
  for (const pid of parents.keys()) {
    let p = pid;
    for (let depth = 0; depth < 8 && p > 1; depth += 1) {
      if (p === rootPid) {
        const cmdline = cmdlines.get(pid)!;
        out.push({ pid, type: /--type=([a-z-]+)/.exec(cmdline)?.[1] ?? 'browser', cmdline });
        break;
      }
      p = parents.get(p) ?? 0;
    }
  }
  return out;
}

const TICK = 100; // USER_HZ

export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / TICK;
}

/** CPU seconds of each thread of `pid`, by thread name (CrRendererMain, DedicatedWorker thread, ServiceWorker thread, …). */
export async function threadSeconds(pid: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[0-9]+$/, '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(`${name}#${tid}`, (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / TICK);
  }
  return out;
}

/**
 * Resident memory of a process, and its private part: anonymous resident memory + swap, which is
 * Chromium's own "private memory footprint" on Linux. RSS also counts the browser binary's code
 * pages, which every renderer shares: a renderer started for the download service worker adds
 * some 80 MiB of RSS that is mostly those shared pages.
 */
export async function memoryOf(pid: number): Promise<{ rss: number; private: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), private: kib('RssAnon') + kib('VmSwap') };
}

/** The renderers' memory, summed. */
export async function renderersMemory(browserPid: number): Promise<{ rss: number; private: number }> {
  const sum = { rss: 0, private: 0 };
  for (const proc of await descendants(browserPid)) {
    if (proc.type !== 'renderer') continue;
    const memory = await memoryOf(proc.pid);
    sum.rss += memory.rss;
    sum.private += memory.private;
  }
  return sum;
}

export async function rendererIdleBytes(browserPid: number): Promise<{ rss: number; private: number }> {
  const idle = { rss: 0, private: 0 };
  for (let i = 0; i < 10; i += 1) {
    const sum = await renderersMemory(browserPid);
    idle.rss = Math.max(idle.rss, sum.rss);
    idle.private = Math.max(idle.private, sum.private);
    await new Promise((done) => setTimeout(done, 100));
  }
  return idle;
}

/** The browser process Playwright started (a child of this process, the one without --type). */
export async function chromiumBrowserPid(): Promise<number> {
  const pid = (await descendants(process.pid)).find(
    (proc) => proc.type === 'browser' && /chrom/.test(proc.cmdline) && proc.cmdline.includes('--remote-debugging-pipe'),
  )?.pid;
  if (!pid) throw new Error('no browser process');
  return pid;
}

/** Keeps one JavaScript thread busy for 300 ms (a page's, or a worker's, through its evaluate). */
export const SPIN_300_MS = () => {
  const until = performance.now() + 300;
  while (performance.now() < until);
};

/**
 * The renderer process that runs a page or a worker (Playwright does not say which): the one
 * whose CPU time jumps while `spin` keeps its thread busy (`SPIN_300_MS` in its evaluate).
 */
export async function rendererBusiedBy(browserPid: number, spin: () => Promise<unknown>): Promise<number> {
  const renderers = (await descendants(browserPid)).filter((proc) => proc.type === 'renderer');
  const before = await Promise.all(renderers.map((proc) => cpuSeconds(proc.pid)));
  await spin();
  const after = await Promise.all(renderers.map((proc) => cpuSeconds(proc.pid)));
  const busiest = after.map((seconds, i) => seconds - before[i]!).reduce((best, used, i, all) => (used > all[best]! ? i : best), 0);
  return renderers[busiest]!.pid;
}
