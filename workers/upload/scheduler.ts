import { SlotPool } from '../multipart.ts';
import type { Phase } from './phase.ts';

/**
 * Which uploads run, and when: queued files start oldest first, at most `maxActiveFiles` at
 * once, and their parts share `parallel` slots fairly (a freed slot goes to the file holding
 * the fewest, so a small file added next to a large one is not stuck behind it). Files that
 * failed on network or server trouble are tried again after `autoRetryMs`.
 */

export interface Schedulable {
  readonly phase: Phase;
  /** The file's bytes are at hand (picked, or reopened through its handle). */
  readonly hasFile: boolean;
  readonly createdAt: number;
}

export interface SchedulerOptions {
  parallel: number;
  maxActiveFiles: number;
  /** 0: failed uploads wait for the network to come back, or for a person to retry. */
  autoRetryMs: number;
}

export class Scheduler {
  /** Part requests in flight over all files. */
  readonly slots: SlotPool;
  private readonly options: SchedulerOptions;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(options: SchedulerOptions) {
    this.options = options;
    this.slots = new SlotPool(options.parallel);
  }

  /** The uploads to start now: queued ones with their file, oldest first, up to the free file places. */
  toStart<T extends Schedulable>(uploads: Iterable<T>): T[] {
    if (this.stopped) return [];
    const all = [...uploads];
    const free = this.options.maxActiveFiles - all.filter((upload) => upload.phase === 'uploading').length;
    if (free <= 0) return [];
    return all
      .filter((upload) => upload.phase === 'queued' && upload.hasFile)
      .sort((a, b) => a.createdAt - b.createdAt)
      .slice(0, free);
  }

  /** Network or server trouble rarely lasts: incomplete uploads are tried again a little later. */
  retryLater(retry: () => void): void {
    if (!this.options.autoRetryMs || this.retryTimer || this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      retry();
    }, this.options.autoRetryMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
