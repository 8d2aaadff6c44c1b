import type { UploadRecord, UploadStore } from '../upload-store.ts';
import { STATUS_OF, storedPhaseOf, type Phase } from './phase.ts';

/**
 * Uploads forgotten on a store, by whichever engine forgot them. The engine a reload left behind
 * shares the store (upload.worker.ts) and may still hold a record of such an upload waiting to
 * be written: a cancel on the new page must not see it written back after its delete.
 */
const forgottenOn = new WeakMap<UploadStore, Set<string>>();

/**
 * How long an upload's background record writes pause after each one lands. Each write costs
 * the upload worker's thread an IndexedDB transaction and its callbacks (about 0.65 ms in a
 * Chromium trace). A second of finished parts is what an engine that dies without flushing (a
 * killed tab, a dedicated worker dying with its page, a sign-out) can leave unrecorded: their
 * progress shows lower until the upload resumes, and nothing else, since ListParts is the truth
 * on resume.
 */
export const RECORD_WRITES_EVERY_MS = 1000;

function pauseBetweenWrites(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const end = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', end);
      resolve();
    };
    const timer = setTimeout(end, RECORD_WRITES_EVERY_MS);
    signal.addEventListener('abort', end, { once: true });
  });
}

/**
 * The engine's writes to IndexedDB (ARCHITECTURE §4). Once closed (a closed tab, a sign-out)
 * nothing more is written, so the store keeps what the last write left (up to a second of parts
 * behind, see `RECORD_WRITES_EVERY_MS`) and the next start resumes from there with ListParts.
 */
export class UploadRecords {
  private readonly store: UploadStore;
  private readonly forgotten: Set<string>;
  private readonly pause: (signal: AbortSignal) => Promise<void>;
  private closed = false;
  /** Background writes by uid: the latest record waiting, the writes' end, and how to cut their pause short. */
  private readonly writers = new Map<string, { waiting: UploadRecord | null; done: Promise<void>; hurry: AbortController }>();

  /** `pause`: what a background write waits after it lands (tests give their own). */
  constructor(store: UploadStore, pause: (signal: AbortSignal) => Promise<void> = pauseBetweenWrites) {
    this.store = store;
    this.pause = pause;
    this.forgotten = forgottenOn.get(store) ?? new Set();
    forgottenOn.set(store, this.forgotten);
  }

  list(userId: number): Promise<UploadRecord[]> {
    return this.store.list(userId);
  }

  /**
   * Writes the upload's live record now. A record of it still waiting in the background is older
   * than this one and is dropped, so it can never land after it (an outcome, a completion).
   */
  async save(record: UploadRecord): Promise<void> {
    const writer = this.writers.get(record.uid);
    if (writer) writer.waiting = null;
    await this.put(record);
  }

  private async put(record: UploadRecord): Promise<void> {
    if (this.closed || this.forgotten.has(record.uid)) return;
    await this.store.put(record);
  }

  /**
   * Records a finished part without holding up the next one (issue 14, the hot path): the
   * record as it is now is written in the background, so the part's slot goes to the next part
   * at once. Writes of one upload never overlap and the last record given is always written.
   * After each write the upload's writer pauses (`RECORD_WRITES_EVERY_MS`); records given
   * meanwhile replace each other, so at speed (six parts a second) the parts of a second cost
   * one write, not one each. A record not yet written when the tab dies costs nothing: ListParts
   * is the truth on resume. `flush` cuts the pause short and waits for the writes.
   */
  saveSoon(record: UploadRecord): void {
    if (this.closed || this.forgotten.has(record.uid)) return;
    const copy: UploadRecord = { ...record, parts: [...record.parts] };
    const writer = this.writers.get(record.uid);
    if (writer) {
      writer.waiting = copy;
      return;
    }
    const started = { waiting: copy as UploadRecord | null, done: Promise.resolve(), hurry: new AbortController() };
    started.done = (async () => {
      for (let next = started.waiting; next; next = started.waiting) {
        started.waiting = null;
        // A failed background write is made good by the next one, or by ListParts.
        await this.put(next).catch(() => undefined);
        // Paused even with nothing waiting: the part after it would otherwise write at once.
        if (!started.hurry.signal.aborted) await this.pause(started.hurry.signal);
      }
      this.writers.delete(record.uid);
    })();
    this.writers.set(record.uid, started);
  }

  /** Writes what waits now (of one upload, or of all) and waits for it. */
  async flush(uid?: string): Promise<void> {
    for (;;) {
      const writes = uid === undefined ? [...this.writers.values()] : [this.writers.get(uid)].filter((writer) => writer !== undefined);
      if (writes.length === 0) return;
      for (const writer of writes) writer.hurry.abort();
      await Promise.all(writes.map((writer) => writer.done));
    }
  }

  /** Stores how a run ended without touching the live record (its phase is set once this is written). */
  async saveOutcome(record: UploadRecord, phase: Phase, error: string | null): Promise<void> {
    const { phase: _previous, ...rest } = record;
    const stored = storedPhaseOf(phase);
    await this.save({ ...rest, status: STATUS_OF[phase], error, ...(stored && { phase: stored }) });
  }

  /**
   * Done, cancelled or dismissed: nothing is left to resume. A record still waiting to be
   * written is dropped and the write under way finishes first, and nothing of this upload is
   * written on this store afterwards, by this engine or the one a reload left: a part that
   * finished just before a cancel cannot bring the record back after it is deleted.
   */
  async forget(uid: string): Promise<void> {
    this.forgotten.add(uid);
    const writer = this.writers.get(uid);
    if (writer) {
      writer.waiting = null;
      writer.hurry.abort();
      await writer.done;
    }
    await this.store.delete(uid);
  }

  close(): void {
    this.closed = true;
    for (const writer of this.writers.values()) writer.hurry.abort();
  }
}
