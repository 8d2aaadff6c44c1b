import type { UploadRecord, UploadStatus } from '../upload-store.ts';
import type { Needs } from './types.ts';

/**
 * Where one upload stands: the only state of an item, so that what a person sees (status,
 * paused, what it needs) and what it allows (resume, dismiss) are read off one value and can
 * never disagree. A change of phase is stored in IndexedDB first and announced after.
 */
export type Phase =
  | 'queued'
  /** Its requests are running. */
  | 'uploading'
  /** Waiting for the network to come back; resumes by itself. */
  | 'paused'
  /** Incomplete after network or server trouble: tried again later, or when back online. */
  | 'failed'
  /**
   * Incomplete because the server refused it (no memory, not a video, another 4xx): it can only
   * be dismissed. The server discarded what was stored, and the same bytes get the same answer.
   */
  | 'refused'
  /** Incomplete until the user gives the file again, or access to it. */
  /**
   * Incomplete after an unexpected error (not an answer of the server): resumed by hand, and
   * after a reload read back like any incomplete upload (its refusal is not stored).
   */
  | 'stopped'
  | 'needs-file'
  | 'needs-permission'
  | 'done'
  /** Removed by the user: its requests stop, nothing more is stored or shown. */
  | 'cancelled';

export const STATUS_OF: Record<Phase, UploadStatus> = {
  queued: 'queued',
  uploading: 'uploading',
  paused: 'queued',
  failed: 'incomplete',
  refused: 'incomplete',
  stopped: 'incomplete',
  'needs-file': 'incomplete',
  'needs-permission': 'incomplete',
  done: 'done',
  cancelled: 'incomplete',
};

/**
 * The phase a record keeps in IndexedDB beside its status, where the status alone would
 * read back as another phase: a refused upload stays refused (with its reason) after a reload.
 */
export function storedPhaseOf(phase: Phase): UploadRecord['phase'] {
  return phase === 'refused' ? 'refused' : undefined;
}

/** Statuses still on their way: counted as active in the totals, and shown paused while offline. */
export const ACTIVE_STATUSES: readonly UploadStatus[] = ['queued', 'uploading'];

/** Phases a person may remove from the list: finished, or stopped for good until they act. */
export const DISMISSABLE = new Set<Phase>(['done', 'refused', 'stopped', 'needs-file', 'needs-permission']);

export function needsOf(phase: Phase): Needs {
  return phase === 'needs-file' ? 'file' : phase === 'needs-permission' ? 'permission' : null;
}

/**
 * Why a running upload's requests were stopped: the reason its AbortSignal is aborted with.
 * 'pause': the network went away (it resumes by itself); 'cancel': the user removed it;
 * 'close': the engine stopped (a closed tab, a sign-out) and IndexedDB stays as it is.
 */
export type StopReason = 'pause' | 'cancel' | 'close';
