import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';

export interface OtherProcess {
  pid: number;
  command: string;
}

/**
 * The processes of this machine, other than this one, holding a file under `dir` open (Linux's
 * /proc; elsewhere none are found). An embedded database that a server serves has its files open
 * for as long as it runs, so this finds a server of any release on the directory, including ones
 * from before the data directory's lock file (server/data-dir-lock.ts) and ones on another port.
 * Processes of other users whose descriptors cannot be read are not seen (the lock covers ours).
 */
export function processesUsing(dir: string): OtherProcess[] {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
  } catch {
    return [];
  }
  const found: OtherProcess[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    const holds = fds.some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(prefix);
      } catch {
        return false;
      }
    });
    if (!holds) continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      // ended meanwhile: still named by its pid
    }
    found.push({ pid: Number(pid), command });
  }
  return found;
}

/** Whether something listens on `host:port` already (binding it fails with EADDRINUSE). */
export function portTaken(host: string, port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}
