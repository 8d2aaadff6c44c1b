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
