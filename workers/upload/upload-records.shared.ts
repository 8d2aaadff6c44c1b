import type { UploadRecord, UploadStore } from '../upload-store.shared.ts';
import { STATUS_OF, storedPhaseOf, type Phase } from './phase.shared.ts';

/**
 * The engine's writes to IndexedDB (ARCHITECTURE §4). Once closed (a closed tab, a sign-out)
 * nothing more is written, so the store keeps what the last finished step left and the next
 * start resumes from there.
 */
export class UploadRecords {
  private readonly store: UploadStore;
  private closed = false;
  /** Background writes by uid, in order: the last one queued. */
  private readonly queued = new Map<string, Promise<void>>();

  constructor(store: UploadStore) {
    this.store = store;
  }

  list(userId: number): Promise<UploadRecord[]> {
    return this.store.list(userId);
  }

  async save(record: UploadRecord): Promise<void> {
    if (this.closed) return;
    await this.store.put(record);
  }

  /**
   * Records a finished part without holding up the next one (issue 14, the hot path): the
   * record as it is now is written in the background, after the writes queued before it, so
   * IndexedDB still gets every part in order while the part's slot goes to the next part at
   * once. A write that never lands (the tab dies first) costs nothing: ListParts is the truth
   * on resume. `flush` waits for them.
   */
  saveSoon(record: UploadRecord): void {
    if (this.closed) return;
    const copy: UploadRecord = { ...record, parts: [...record.parts] };
    const write = (this.queued.get(record.uid) ?? Promise.resolve())
      .then(() => this.save(copy))
      // A failed background write is made good by the next one, or by ListParts.
      .catch(() => undefined)
      .finally(() => {
        if (this.queued.get(record.uid) === write) this.queued.delete(record.uid);
      });
    this.queued.set(record.uid, write);
  }

  /** Waits for the background writes (of one upload, or of all). */
  async flush(uid?: string): Promise<void> {
    for (;;) {
      const writes = uid === undefined ? [...this.queued.values()] : [this.queued.get(uid)].filter((write) => write !== undefined);
      if (writes.length === 0) return;
      await Promise.all(writes);
    }
  }

  /** Stores how a run ended without touching the live record (its phase is set once this is written). */
  async saveOutcome(record: UploadRecord, phase: Phase, error: string | null): Promise<void> {
    const { phase: _previous, ...rest } = record;
    const stored = storedPhaseOf(phase);
    await this.save({ ...rest, status: STATUS_OF[phase], error, ...(stored && { phase: stored }) });
  }

  /** Done, cancelled or dismissed: nothing is left to resume. */
  async forget(uid: string): Promise<void> {
    await this.store.delete(uid);
  }

  close(): void {
    this.closed = true;
  }
}
