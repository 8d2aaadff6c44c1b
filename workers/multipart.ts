import type { PlannedPart } from '@/domain/uploads.ts';
import type { ListedPart } from './s3-client.ts';
import type { StoredPartRecord } from './upload-store.ts';

/** Pure pieces of the multipart engine: reconciliation with ListParts, and a fair slot pool. */

export interface Reconciled {
  /** Part number → ETag of every part the store really holds with the planned size. */
  done: Map<number, string>;
  /** Parts the store holds that IndexedDB did not know (the tab died before writing them). */
  adopted: number[];
  /** Parts IndexedDB recorded that the store does not hold (or holds with another size or ETag): sent again. */
  dropped: number[];
  /** Part number → CRC-32 of the done parts whose CRC is known: as the store lists it, else as recorded for the same ETag. */
  crcs: Map<number, number>;
}

/**
 * ListParts is the truth: a part counts as done only when the store lists it with the size
 * the plan gives it. A part listed with another ETag than recorded was overwritten by a later
 * attempt; the store's ETag wins, since CompleteMultipartUpload checks against it.
 */
export function reconcileParts(plan: readonly PlannedPart[], stored: readonly StoredPartRecord[], listed: readonly ListedPart[]): Reconciled {
  const planned = new Map(plan.map((part) => [part.partNumber, part.size]));
  const recorded = new Map(stored.map((part) => [part.PartNumber, part]));
  const done = new Map<number, string>();
  const crcs = new Map<number, number>();
  const adopted: number[] = [];
  for (const part of listed) {
    if (planned.get(part.partNumber) !== part.size || !part.etag) continue;
    done.set(part.partNumber, part.etag);
    const mine = recorded.get(part.partNumber);
    const crc32 = part.crc32 ?? (mine?.ETag === part.etag ? mine.CRC32 : undefined);
    if (crc32 !== undefined) crcs.set(part.partNumber, crc32);
    if (!mine) adopted.push(part.partNumber);
  }
  const dropped = [...recorded.keys()].filter((number) => !done.has(number));
  return { done, adopted: adopted.sort((a, b) => a - b), dropped: dropped.sort((a, b) => a - b), crcs };
}

/** The done parts as IndexedDB keeps them (and CompleteMultipartUpload lists them), with their CRC-32 where known. */
export function partRecords(done: Map<number, string>, crcs?: Map<number, number>): StoredPartRecord[] {
  return [...done.entries()]
    .sort(([a], [b]) => a - b)
    .map(([PartNumber, ETag]) => {
      const CRC32 = crcs?.get(PartNumber);
      return CRC32 === undefined ? { PartNumber, ETag } : { PartNumber, ETag, CRC32 };
    });
}

/**
 * At most `size` holders at a time. A freed slot goes to the waiter whose owner (a file) holds
 * the fewest slots, earliest first: a small file added next to a large one gets the next
 * free slot instead of waiting behind all the large file's parts.
 */
export class SlotPool {
  private size: number;
  private free: number;
  private readonly waiting: Array<{ owner: string; resolve: () => void }> = [];
  private readonly held = new Map<string, number>();
  constructor(size: number) {
    this.size = size;
    this.free = size;
  }
  private hold(owner: string, delta: number): void {
    const next = (this.held.get(owner) ?? 0) + delta;
    if (next > 0) this.held.set(owner, next);
    else this.held.delete(owner);
  }
  async acquire(owner = ''): Promise<void> {
    if (this.free > 0 && this.waiting.length === 0) {
      this.free -= 1;
      this.hold(owner, 1);
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push({ owner, resolve }));
  }
  release(owner = ''): void {
    this.hold(owner, -1);
    this.free += 1;
    this.serve();
  }
  /** Changes the number of slots; holders above a smaller size finish first. */
  setSize(size: number): void {
    this.free += size - this.size;
    this.size = size;
    this.serve();
  }
  private serve(): void {
    while (this.free > 0 && this.waiting.length > 0) {
      let best = 0;
      for (let i = 1; i < this.waiting.length; i += 1) {
        if ((this.held.get(this.waiting[i]!.owner) ?? 0) < (this.held.get(this.waiting[best]!.owner) ?? 0)) best = i;
      }
      const [next] = this.waiting.splice(best, 1);
      this.free -= 1;
      this.hold(next!.owner, 1);
      next!.resolve();
    }
  }
  async run<T>(task: () => Promise<T>, owner = ''): Promise<T> {
    await this.acquire(owner);
    try {
      return await task();
    } finally {
      this.release(owner);
    }
  }
}

/**
 * Runs `task` over `items` with `workers` running at once; the first failure stops new
 * tasks from starting and is thrown once the running ones settle.
 */
export async function forEachConcurrently<T>(items: readonly T[], workers: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next]!;
      next += 1;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
