import { percentOf, rateFromSamples, secondsLeft, type ProgressSample } from '@/domain/uploads.ts';
import type { UploadRecord } from '../upload-store.ts';
import { ACTIVE_STATUSES } from './phase.ts';
import type { UploadItemView, UploadTotals } from './types.ts';

/** Progress of the uploads: bytes stored, bytes in flight, speed and time left, per file and overall. */

/** Samples older than this are dropped; the speed itself is read over the last 5 s. */
const SAMPLE_WINDOW_MS = 10_000;

/**
 * Bytes sent, sampled each time a snapshot goes out, for a speed. Every byte put on the wire
 * counts, retries included: the speed is the network's, not the file's.
 */
export class SpeedMeter {
  private sent = 0;
  private samples: ProgressSample[] = [];
  private readonly parent: SpeedMeter | null;

  /** A file's meter passes its bytes on to the meter of all files. */
  constructor(parent: SpeedMeter | null = null) {
    this.parent = parent;
  }

  count(bytes: number): void {
    this.sent += bytes;
    this.parent?.count(bytes);
  }

  sample(at: number): void {
    this.samples = [...this.samples.filter((s) => at - s.at <= SAMPLE_WINDOW_MS), { at, bytes: this.sent }];
  }

  /** Forgets the samples: idle time must not count in the next speed. */
  reset(): void {
    this.samples = [];
  }

  bytesPerSecond(now: number): number {
    return rateFromSamples(this.samples, now);
  }
}

/** One file's bytes: parts the store holds, plus what the requests in flight have sent so far. */
export class FileProgress {
  readonly speed: SpeedMeter;
  private stored: number;
  /** Part number (1 for a single PUT) → bytes of it sent by the running attempt. */
  private readonly inflight = new Map<number, number>();
  /** Bytes the engine before a reload holds or is sending for this file, while it hands over (null: none). */
  private inherited: number | null = null;

  constructor(stored: number, total: SpeedMeter) {
    this.stored = stored;
    this.speed = new SpeedMeter(total);
  }

  /** A new attempt at a part starts from zero. */
  restart(partNumber: number): void {
    this.inflight.delete(partNumber);
  }

  /** Upload progress of a part; false when it adds nothing (nothing to announce). */
  report(partNumber: number, loaded: number): boolean {
    const before = this.inflight.get(partNumber) ?? 0;
    if (loaded <= before) return false;
    this.inflight.set(partNumber, loaded);
    this.speed.count(loaded - before);
    return true;
  }

  /** The store holds the part; what it did not report while it went counts in the speed now. */
  partStored(partNumber: number, size: number): void {
    const reported = this.inflight.get(partNumber) ?? 0;
    if (size > reported) this.speed.count(size - reported);
    this.inflight.delete(partNumber);
    this.stored += size;
  }

  /** What the store holds, as reconciled (or the whole file). */
  setStored(bytes: number): void {
    this.stored = bytes;
  }

  /**
   * What the engine before a reload holds or has sent of this file: shown as loaded, and what it
   * sends from now on counts in the speed (the first figure is a baseline, not a burst).
   */
  inherit(bytes: number): void {
    if (this.inherited !== null && bytes > this.inherited) this.speed.count(bytes - this.inherited);
    this.inherited = Math.max(this.inherited ?? 0, bytes);
  }

  /** Handed over: the file's own parts say what is stored from now on. */
  endInheritance(): void {
    this.inherited = null;
  }

  /** The run ended: whatever was in flight is lost. */
  dropInflight(): void {
    this.inflight.clear();
  }

  loaded(size: number): number {
    let inflight = 0;
    for (const bytes of this.inflight.values()) inflight += bytes;
    return Math.min(size, Math.max(this.stored + inflight, this.inherited ?? 0));
  }
}

/** Bytes a stored record already has in the store, from the parts IndexedDB recorded. */
export function storedBytesOf(record: UploadRecord): number {
  if (record.status === 'done') return record.size;
  if (!record.partSize || record.parts.length === 0) return 0;
  const partSize = record.partSize;
  return record.parts.reduce((sum, part) => sum + Math.min(partSize, record.size - (part.PartNumber - 1) * partSize), 0);
}

/**
 * The overall line. Uploads waiting for their file or for access are not counted in the bytes,
 * nor refused ones (nothing of them is stored: they are neither done nor still to do).
 */
export function totalsOf(views: readonly UploadItemView[], speed: number): UploadTotals {
  const counted = views.filter((v) => !v.refused && (v.status !== 'incomplete' || v.needs === null));
  const size = counted.reduce((sum, v) => sum + v.size, 0);
  const loaded = counted.reduce((sum, v) => sum + v.loaded, 0);
  const active = views.filter((v) => ACTIVE_STATUSES.includes(v.status));
  const pending = active.reduce((sum, v) => sum + (v.size - v.loaded), 0);
  return {
    files: views.length,
    active: active.length,
    size,
    loaded,
    percent: counted.length ? percentOf(loaded, size) : 0,
    speed,
    secondsLeft: active.length ? secondsLeft(pending, speed) : 0,
  };
}
