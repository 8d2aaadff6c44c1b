import type { UploadRecord, UploadStore } from '../upload-store.shared.ts';
import { STATUS_OF, storedPhaseOf, type Phase } from './phase.shared.ts';

/**
 * Uploads forgotten on a store, by whichever engine forgot them. The engine a reload left behind
 * shares the store (upload.worker.ts) and may still hold a record of such an upload waiting to
 * be written: a cancel on the new page must not see it written back after its delete.
 */
const forgottenOn = new WeakMap<UploadStore, Set<string>>();

/**
 * The engine's writes to IndexedDB (ARCHITECTURE §4). Once closed (a closed tab, a sign-out)
 * nothing more is written, so the store keeps what the last finished step left and the next
 * start resumes from there.
 */
export class UploadRecords {
  private readonly store: UploadStore;
  private readonly forgotten: Set<string>;
  private closed = false;
  /** Background writes by uid: the one being written, and the latest record waiting for it. */
  private readonly writers = new Map<string, { waiting: UploadRecord | null; done: Promise<void> }>();

  constructor(store: UploadStore) {
    this.store = store;
    this.forgotten = forgottenOn.get(store) ?? new Set();
    forgottenOn.set(store, this.forgotten);
  }

  list(userId: number): Promise<UploadRecord[]> {
    return this.store.list(userId);
  }

  async save(record: UploadRecord): Promise<void> {
    if (this.closed || this.forgotten.has(record.uid)) return;
    await this.store.put(record);
  }

  /**
   * Records a finished part without holding up the next one (issue 14, the hot path): the
   * record as it is now is written in the background, so the part's slot goes to the next part
   * at once. Writes of one upload never overlap and the last record given is always written;
   * records given while a write is under way replace each other, so parts finishing together
   * (six at a time) cost one write after the current one, not one each. A write that never
   * lands (the tab dies first) costs nothing: ListParts is the truth on resume. `flush` waits
   * for them.
   */
  saveSoon(record: UploadRecord): void {
    if (this.closed || this.forgotten.has(record.uid)) return;
    const copy: UploadRecord = { ...record, parts: [...record.parts] };
    const writer = this.writers.get(record.uid);
    if (writer) {
      writer.waiting = copy;
      return;
    }
    const started: { waiting: UploadRecord | null; done: Promise<void> } = { waiting: copy, done: Promise.resolve() };
    started.done = (async () => {
      for (let next = started.waiting; next; next = started.waiting) {
        started.waiting = null;
        // A failed background write is made good by the next one, or by ListParts.
        await this.save(next).catch(() => undefined);
      }
      this.writers.delete(record.uid);
    })();
    this.writers.set(record.uid, started);
  }

  /** Waits for the background writes (of one upload, or of all). */
  async flush(uid?: string): Promise<void> {
    for (;;) {
      const writes = uid === undefined ? [...this.writers.values()] : [this.writers.get(uid)].filter((writer) => writer !== undefined);
      if (writes.length === 0) return;
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
      await writer.done;
    }
    await this.store.delete(uid);
  }

  close(): void {
    this.closed = true;
  }
}
