import type { AssetType, UploadType } from '@/domain/uploads.ts';
import type { FileSystemFileHandleLike, UploadStatus } from '../upload-store.ts';

/** What the page sends the upload engine and what it shows back (re-exported by upload-engine.ts). */

/** The shared upload worker's first message on a new port: its script runs and it listens (src/shared/uploads/worker-endpoint.ts). */
export const UPLOAD_WORKER_LISTENING = 'cutdesk-upload-worker-listening';

export interface UploadTarget {
  projectId: number;
  type: AssetType;
  /** 'asset' (default): a raw file, registered as an asset. 'deliverable': a final video (staff), not registered here. */
  uploadType?: UploadType;
}

export interface FileEntry {
  file: File;
  handle?: FileSystemFileHandleLike;
  /** Issue 35: where the file sat in a dropped or picked folder ("CARD/DCIM/100MSDCF/C0001.MP4"). */
  relativePath?: string;
}

export type Needs = 'file' | 'permission' | null;

export interface UploadItemView {
  uid: string;
  projectId: number;
  type: AssetType;
  uploadType: UploadType;
  fileName: string;
  /** Issue 35: the folder the file sat in inside a dropped folder, or null. */
  folder: string | null;
  /** Final name (after check-name), else the sanitised one. */
  name: string;
  key: string | null;
  size: number;
  lastModified: number;
  status: UploadStatus;
  /** Waiting for the network to come back. */
  paused: boolean;
  loaded: number;
  percent: number;
  /** Bytes per second. */
  speed: number;
  secondsLeft: number | null;
  error: string | null;
  /** What the user must give to resume: the file again, or access to it. */
  needs: Needs;
  /**
   * The server refused the file (a 4xx: not a video, no more memory…): `error` is its reason.
   * Nothing of it is stored and the same bytes get the same answer, so it can only be
   * dismissed; it is not an unfinished upload (status stays 'incomplete' for older readers).
   */
  refused: boolean;
  /** True when a File System Access handle is kept for this upload. */
  hasHandle: boolean;
  /** The registered asset, once done. */
  assetId: number | null;
  /** Issue 35: paused by the person ("Pause all"), not by the network. */
  held: boolean;
  /** Issue 35: made from the organization's stored copy of the same file: done with no byte sent. */
  reused: boolean;
}

export interface UploadTotals {
  files: number;
  active: number;
  size: number;
  loaded: number;
  percent: number;
  speed: number;
  secondsLeft: number | null;
}

export interface UploadSnapshot {
  items: UploadItemView[];
  totals: UploadTotals;
  online: boolean;
  /** Issue 35: the person paused every upload ("Pause all"): nothing starts until "Resume all". */
  held: boolean;
}

export interface EnqueueResult {
  /** Uids of the new uploads. */
  accepted: string[];
  /** Uids of incomplete uploads the files were matched to (same name, size and date): resumed. */
  resumed: string[];
  /** Names of files this zone does not take (C§5 accept rules). */
  rejected: string[];
  /** 'no-memory' when the batch does not fit in the remaining storage: nothing was queued. */
  refused: 'no-memory' | null;
}
