import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real small file system for disk-full tests (issue 32): a tmpfs of a few MiB mounted on a new
 * directory, so the kernel itself answers ENOSPC, to the store, PGlite and tar alike (no mocked
 * fs). Mounting needs root (CAP_SYS_ADMIN), which `.ci/run` has (it installs with apt-get); where
 * it is refused, `smallDiskUnavailable` says why and the tests that need one are skipped.
 */
export interface SmallDisk {
  dir: string;
  /** Fills the disk to the last byte with a file of its own; the returned function removes it. */
  fill(): () => void;
  unmount(): void;
}

function tryMount(size: string): SmallDisk | string {
  const dir = mkdtempSync(join(tmpdir(), 'cutdesk-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `mount -t tmpfs is not permitted here (${(mounted.error?.message ?? mounted.stderr.trim()) || `exit ${mounted.status}`}): a small real disk needs root`;
  }
  return {
    dir,
    fill() {
      const filler = join(dir, `filler-${Date.now()}`);
      const fd = openSync(filler, 'a');
      // Large writes, then page by page, until the kernel says no: then not a byte is free.
      try {
        for (const size of [1 << 20, 4096, 1]) {
          try {
            for (;;) writeSync(fd, Buffer.alloc(size));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
      return () => rmSync(filler, { force: true });
    },
    unmount() {
      // Lazily when something still holds a file there (a process that failed on it and kept it open).
      if (spawnSync('umount', [dir]).status !== 0) spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why no small disk can be mounted here, or null when it can (probed once: mounted and unmounted). */
export const smallDiskUnavailable: string | null = (() => {
  const probe = tryMount('64k');
  if (typeof probe === 'string') return probe;
  probe.unmount();
  return null;
})();

/** A tmpfs of `size` (e.g. `4m`); throws where smallDiskUnavailable says none can be had. */
export function mountSmallDisk(size: string): SmallDisk {
  const disk = tryMount(size);
  if (typeof disk === 'string') throw new Error(disk);
  return disk;
}
