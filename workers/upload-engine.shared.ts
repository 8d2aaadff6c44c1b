import {
  ACCEPT_OF_TYPE,
  CREDENTIALS_REFRESH_MARGIN_MS,
  MAX_ATTEMPTS,
  PARALLEL_PARTS,
  UPLOAD_MESSAGES,
  acceptsFile,
  contentTypeOf,
  isRetryable,
  needsNewCredentials,
  percentOf,
  planParts,
  quotaAllows,
  rateFromSamples,
  retryDelay,
  sanitizeFileName,
  secondsLeft,
  uploadPrefix,
  type AssetType,
  type PlannedPart,
  type ProgressSample,
  type UploadType,
} from '@/domain/uploads.ts';
import { NO_MEMORY_CODE } from '@/domain/contract/uploads.ts';
import { SlotPool, forEachConcurrently, partRecords, reconcileParts } from './multipart.shared.ts';
import { S3RequestError, createS3Client, type S3Client, type S3Session } from './s3-client.shared.ts';
import { ApiFailure, type ServerApi } from './server-api.shared.ts';
import { TransportError, type Transport } from './transport.shared.ts';
import type { FileSystemFileHandleLike, UploadRecord, UploadStatus, UploadStore } from './upload-store.shared.ts';

/**
 * The upload engine (ARCHITECTURE §4), run inside the upload worker. Per file: sanitise the
 * name, check the remaining storage, ask check-name for the final name and location, get
 * temporary credentials, upload straight to object storage (one PUT under 20 MiB, else
 * 20,971,520-byte parts, 6 in flight, each tried up to 20 times 200 ms apart), record every
 * finished part in IndexedDB, then register the asset. On start, after a reload, a crash or
 * a lost network, uploads resume from the parts the store holds (ListParts), never from zero.
 */

export interface UploadTarget {
  projectId: number;
  type: AssetType;
  /** 'asset' (default): a raw file, registered as an asset. 'deliverable': a final video (staff), not registered here. */
  uploadType?: UploadType;
}

export interface FileEntry {
  file: File;
  handle?: FileSystemFileHandleLike;
}

export type Needs = 'file' | 'permission' | null;

export interface UploadItemView {
  uid: string;
  projectId: number;
  type: AssetType;
  uploadType: UploadType;
  fileName: string;
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
  /** True when a File System Access handle is kept for this upload. */
  hasHandle: boolean;
  /** The registered asset, once done. */
  assetId: number | null;
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

export interface UploadEngineOptions {
  api: ServerApi;
  transport: Transport;
  store: UploadStore;
  userId: number;
  organizationId: number;
  onChange?: (snapshot: UploadSnapshot) => void;
  /** Parts in flight over all files (A§9: 6). */
  parallel?: number;
  /** Attempts per request (A§9: 20). */
  attempts?: number;
  retryDelayMs?: number;
  /** Files uploading at the same time (their parts share the `parallel` slots). */
  maxActiveFiles?: number;
  online?: boolean;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** How a stored handle gives its file (a test seam; browsers call handle.getFile()). */
  openHandle?: (handle: FileSystemFileHandleLike) => Promise<File>;
  newUid?: () => string;
  /** Snapshot throttle in ms. */
  emitEveryMs?: number;
  /** Uploads that failed on network or server trouble are tried again after this long (0: only when back online or asked). */
  autoRetryMs?: number;
  /**
   * Parts in flight for a store endpoint (default: `parallel`). The browser worker keeps one
   * of the browser's six HTTP/1.1 connections free when the store shares the app's origin.
   */
  partsFor?: (endpoint: string) => number;
}

/**
 * Where one upload stands: the only state of an item, so that what a person sees (status,
 * paused, what it needs) and what it allows (resume, dismiss) are read off one value and can
 * never disagree. A change of phase is stored in IndexedDB first and announced after.
 */
type Phase =
  | 'queued'
  /** Its requests are running. */
  | 'uploading'
  /** Waiting for the network to come back; resumes by itself. */
  | 'paused'
  /** Incomplete after network or server trouble: tried again later, or when back online. */
  | 'failed'
  /** Incomplete because the server refused it (no memory, 4xx): it can only be dismissed or resumed by hand. */
  | 'refused'
  /** Incomplete until the user gives the file again, or access to it. */
  | 'needs-file'
  | 'needs-permission'
  | 'done'
  /** Removed by the user: its requests stop, nothing more is stored or shown. */
  | 'cancelled';

const STATUS_OF: Record<Phase, UploadStatus> = {
  queued: 'queued',
  uploading: 'uploading',
  paused: 'queued',
  failed: 'incomplete',
  refused: 'incomplete',
  'needs-file': 'incomplete',
  'needs-permission': 'incomplete',
  done: 'done',
  cancelled: 'incomplete',
};

/** Phases a person may remove from the list: finished, or stopped for good until they act. */
const DISMISSABLE = new Set<Phase>(['done', 'refused', 'needs-file', 'needs-permission']);

/** Read through a call: a phase can change while a request is awaited (the user cancels). */
function isCancelled(item: Item): boolean {
  return item.phase === 'cancelled';
}

function needsOf(phase: Phase): Needs {
  return phase === 'needs-file' ? 'file' : phase === 'needs-permission' ? 'permission' : null;
}

interface Item {
  record: UploadRecord;
  file: Blob | null;
  phase: Phase;
  controller: AbortController | null;
  doneBytes: number;
  inflight: Map<number, number>;
  sent: number;
  samples: ProgressSample[];
  assetId: number | null;
}

class Paused extends Error {
  constructor() {
    super(UPLOAD_MESSAGES.offline);
    this.name = 'Paused';
  }
}

class Cancelled extends Error {}

function failureOf(error: unknown): { status: number; code: string | undefined; aborted: boolean } {
  if (error instanceof TransportError) return { status: 0, code: undefined, aborted: error.aborted };
  if (error instanceof S3RequestError) return { status: error.status, code: error.code, aborted: false };
  if (error instanceof ApiFailure) return { status: error.status, code: undefined, aborted: false };
  return { status: -1, code: undefined, aborted: false };
}

const ACTIVE: UploadStatus[] = ['queued', 'uploading'];

export function sameFile(record: Pick<UploadRecord, 'fileName' | 'size' | 'lastModified'>, file: { name: string; size: number; lastModified: number }): boolean {
  return record.fileName === file.name && record.size === file.size && record.lastModified === file.lastModified;
}

export class UploadEngine {
  private readonly items = new Map<string, Item>();
  private readonly pool: SlotPool;
  private readonly sessions = new Map<string, { client: S3Client; session: S3Session | null; pending: Promise<S3Session> | null }>();
  private readonly options: Required<Omit<UploadEngineOptions, 'onChange' | 'partsFor'>> & Pick<UploadEngineOptions, 'onChange' | 'partsFor'>;
  private online: boolean;
  private emitTimer: ReturnType<typeof setTimeout> | null = null;
  private globalSamples: ProgressSample[] = [];
  private globalSent = 0;
  private started = false;
  private destroyed = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(options: UploadEngineOptions) {
    this.options = {
      parallel: PARALLEL_PARTS,
      attempts: MAX_ATTEMPTS,
      retryDelayMs: -1,
      maxActiveFiles: 3,
      online: true,
      now: () => Date.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      openHandle: (handle) => handle.getFile(),
      newUid: () => crypto.randomUUID(),
      emitEveryMs: 200,
      autoRetryMs: 30_000,
      ...options,
    };
    this.online = this.options.online;
    this.pool = new SlotPool(this.options.parallel);
  }

  // ——— Public API ———

  /**
   * The start-up pass (C§4 "dummy upload"): uploads of this user left in IndexedDB come back.
   * Those whose file is reachable (a kept handle still allowed) resume at once; the others
   * wait, incomplete, for the file or for access to it.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const record of await this.options.store.list(this.options.userId)) {
      if (record.status === 'done') {
        await this.options.store.delete(record.uid);
        continue;
      }
      if (this.items.has(record.uid)) continue;
      const item = this.newItem(record, null);
      this.items.set(record.uid, item);
      if (record.error === UPLOAD_MESSAGES.noMoreMemory) {
        item.phase = 'refused';
        continue;
      }
      await this.reopen(item);
    }
    this.emit(true);
    this.pump();
  }

  /** New files for a zone. Files matching an incomplete upload resume it instead of starting over. */
  async enqueue(entries: FileEntry[], target: UploadTarget): Promise<EnqueueResult> {
    const uploadType = target.uploadType ?? 'asset';
    const kind = uploadType === 'deliverable' ? 'video' : ACCEPT_OF_TYPE[target.type];
    const result: EnqueueResult = { accepted: [], resumed: [], rejected: [], refused: null };
    const fresh: FileEntry[] = [];
    for (const entry of entries) {
      if (!acceptsFile(kind, entry.file)) {
        result.rejected.push(entry.file.name);
        continue;
      }
      const waiting = [...this.items.values()].find((item) => item.file === null && item.phase !== 'uploading' && item.phase !== 'cancelled' && item.record.projectId === target.projectId && item.record.type === target.type && sameFile(item.record, entry.file));
      if (waiting) {
        await this.attach(waiting, entry.file, entry.handle);
        result.resumed.push(waiting.record.uid);
      } else {
        fresh.push(entry);
      }
    }
    if (fresh.length === 0) {
      this.pump();
      return result;
    }
    if (uploadType === 'asset' && !(await this.fits(fresh.reduce((sum, entry) => sum + entry.file.size, 0)))) {
      result.refused = 'no-memory';
      return result;
    }
    const now = this.options.now();
    for (const [index, { file, handle }] of fresh.entries()) {
      const record: UploadRecord = {
        uid: this.options.newUid(),
        userId: this.options.userId,
        organizationId: this.options.organizationId,
        projectId: target.projectId,
        type: target.type,
        uploadType,
        fileName: file.name,
        size: file.size,
        lastModified: file.lastModified,
        contentType: contentTypeOf(file),
        name: null,
        key: null,
        uploadId: null,
        partSize: null,
        partCount: 0,
        parts: [],
        status: 'queued',
        error: null,
        ...(handle && { handle }),
        createdAt: now + index / 1000,
        updatedAt: now,
      };
      await this.persist(record);
      this.items.set(record.uid, this.newItem(record, file));
      result.accepted.push(record.uid);
    }
    this.emit(true);
    this.pump();
    return result;
  }

  /** The re-picked file of an incomplete upload; false when it is not the same file (name, size, date). */
  async provideFile(uid: string, file: File, handle?: FileSystemFileHandleLike): Promise<boolean> {
    const item = this.items.get(uid);
    if (!item || item.phase === 'uploading' || !sameFile(item.record, file)) return false;
    await this.attach(item, file, handle);
    this.pump();
    return true;
  }

  /** Tries an incomplete upload again (after an error, or once access to its handle was granted). */
  async retry(uid: string): Promise<void> {
    const item = this.items.get(uid);
    if (!item || item.phase === 'uploading' || item.phase === 'done') return;
    if (item.file === null) await this.reopen(item);
    else this.requeue(item);
    this.emit(true);
    this.pump();
  }

  /** Cancels an upload: its requests stop, its multipart upload is aborted, its record goes. */
  async cancel(uid: string): Promise<void> {
    const item = this.items.get(uid);
    if (!item) return;
    const stored = item.phase === 'done';
    item.phase = 'cancelled';
    item.controller?.abort();
    this.items.delete(uid);
    await this.options.store.delete(uid);
    this.emit(true);
    const { key, uploadId, projectId, uploadType } = item.record;
    if (key && uploadId && !stored) {
      try {
        await this.clientFor(projectId, uploadType).abortMultipartUpload(key, uploadId);
      } catch {
        // The server aborts uploads left for 7 days; nothing more to do here.
      }
    }
    this.pump();
  }

  /** Removes a finished (or refused) upload from the list. */
  async dismiss(uid: string): Promise<void> {
    const item = this.items.get(uid);
    if (!item || !DISMISSABLE.has(item.phase)) return;
    this.items.delete(uid);
    await this.options.store.delete(uid);
    this.emit(true);
  }

  /** Going offline pauses every transfer; coming back resumes them (and retries network failures). */
  setOnline(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    if (!online) {
      for (const item of this.items.values()) if (item.phase === 'uploading') item.controller?.abort();
    } else {
      for (const item of this.items.values()) if (item.phase === 'paused' || (item.phase === 'failed' && item.file)) this.requeue(item);
      this.pump();
    }
    this.emit(true);
  }

  handleOf(uid: string): FileSystemFileHandleLike | null {
    return this.items.get(uid)?.record.handle ?? null;
  }

  snapshot(): UploadSnapshot {
    const now = this.options.now();
    const views = [...this.items.values()].sort((a, b) => a.record.createdAt - b.record.createdAt).map((item) => this.view(item, now));
    const counted = views.filter((v) => v.status !== 'incomplete' || v.needs === null);
    const size = counted.reduce((sum, v) => sum + v.size, 0);
    const loaded = counted.reduce((sum, v) => sum + v.loaded, 0);
    const speed = rateFromSamples(this.globalSamples, now);
    const active = views.filter((v) => ACTIVE.includes(v.status)).length;
    const pending = views.filter((v) => ACTIVE.includes(v.status)).reduce((sum, v) => sum + (v.size - v.loaded), 0);
    return {
      items: views,
      totals: { files: views.length, active, size, loaded, percent: percentOf(loaded, size), speed, secondsLeft: active ? secondsLeft(pending, speed) : 0 },
      online: this.online,
    };
  }

  /** Stops everything at once, leaving IndexedDB as it is (a closed tab). */
  destroy(): void {
    this.destroyed = true;
    for (const item of this.items.values()) item.controller?.abort();
    if (this.emitTimer) clearTimeout(this.emitTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  // ——— Queue ———

  private newItem(record: UploadRecord, file: Blob | null): Item {
    return { record, file, phase: file ? 'queued' : 'needs-file', controller: null, doneBytes: doneBytesOf(record), inflight: new Map(), sent: 0, samples: [], assetId: null };
  }

  private async attach(item: Item, file: File, handle?: FileSystemFileHandleLike): Promise<void> {
    item.file = file;
    if (handle) item.record.handle = handle;
    this.requeue(item);
    await this.persist(item.record);
    this.emit(true);
  }

  /** Gets the file of a stored upload back through its handle, when the browser still allows it. */
  private async reopen(item: Item): Promise<void> {
    const handle = item.record.handle;
    if (!handle) {
      this.settle(item, 'needs-file');
      return;
    }
    try {
      const file = await this.options.openHandle(handle);
      if (!sameFile(item.record, file)) {
        this.settle(item, 'needs-file', UPLOAD_MESSAGES.notSameFile);
        return;
      }
      item.file = file;
      this.requeue(item);
    } catch {
      // NotAllowedError: access must be granted again, with a click (browser restart).
      this.settle(item, 'needs-permission');
    }
  }

  /** Sets an item's phase (and the record's status and error with it) in one step. */
  private settle(item: Item, phase: Phase, error: string | null = null): void {
    item.phase = phase;
    item.record.status = STATUS_OF[phase];
    item.record.error = error;
  }

  private requeue(item: Item): void {
    this.settle(item, 'queued');
  }

  private uploading(): number {
    let count = 0;
    for (const item of this.items.values()) if (item.phase === 'uploading') count += 1;
    return count;
  }

  private pump(): void {
    if (this.destroyed || !this.online) return;
    const next = [...this.items.values()].filter((item) => item.phase === 'queued' && item.file !== null).sort((a, b) => a.record.createdAt - b.record.createdAt);
    let active = this.uploading();
    for (const item of next) {
      if (active >= this.options.maxActiveFiles) break;
      active += 1;
      void this.run(item);
    }
  }

  private async run(item: Item): Promise<void> {
    item.controller = new AbortController();
    this.settle(item, 'uploading');
    this.emit(true);
    let next: { phase: Phase; error: string | null };
    try {
      await this.persist(item.record);
      await this.upload(item);
      // Stored first, announced after: a reload never finds a record the list no longer shows.
      await this.options.store.delete(item.record.uid);
      next = { phase: 'done', error: null };
      item.doneBytes = item.record.size;
    } catch (error) {
      next = this.outcomeOf(error);
      if (!isCancelled(item) && next.phase !== 'cancelled' && !this.destroyed) await this.persist({ ...item.record, status: STATUS_OF[next.phase], error: next.error });
    }
    item.inflight.clear();
    item.controller = null;
    // A cancelled item left the list while its requests were stopping: nothing more to show.
    if (isCancelled(item) || this.destroyed) return;
    this.settle(item, next.phase === 'paused' && this.online ? 'queued' : next.phase, next.error);
    if (next.phase === 'failed') this.scheduleAutoRetry();
    this.emit(true);
    this.pump();
  }

  /** The phase a failed run leads to, with the message the person reads. */
  private outcomeOf(error: unknown): { phase: Phase; error: string | null } {
    if (error instanceof Cancelled) return { phase: 'cancelled', error: null };
    const { aborted, status } = failureOf(error);
    if (error instanceof Paused || (aborted && !this.online)) return { phase: 'paused', error: null };
    if (error instanceof ApiFailure && error.code === NO_MEMORY_CODE) return { phase: 'refused', error: UPLOAD_MESSAGES.noMoreMemory };
    if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) return { phase: 'refused', error: error.message };
    const retryable = status === 0 || status >= 500 || status === 408 || status === 429;
    if (retryable) return { phase: 'failed', error: UPLOAD_MESSAGES.failedAfterRetries };
    return { phase: 'refused', error: error instanceof Error ? error.message : String(error) };
  }

  /** Network or server trouble rarely lasts: incomplete uploads are tried again a little later. */
  private scheduleAutoRetry(): void {
    if (!this.options.autoRetryMs || this.retryTimer || this.destroyed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.online) return;
      for (const item of this.items.values()) if (item.phase === 'failed' && item.file) this.requeue(item);
      this.emit(true);
      this.pump();
    }, this.options.autoRetryMs);
  }

  // ——— One file ———

  private async upload(item: Item): Promise<void> {
    const record = item.record;
    const file = item.file!;
    if (!record.key) {
      if (record.uploadType === 'asset') {
        const checked = await this.attempt(item, () => this.options.api.checkName(record.projectId, record.type, record.fileName));
        record.name = checked.name;
        record.key = checked.location;
      } else {
        record.name = sanitizeFileName(record.fileName);
        record.key = `${uploadPrefix(record.projectId, 'deliverable')}${this.options.now()}-${record.name}`;
      }
      await this.persist(record);
    }
    try {
      await this.transfer(item, file);
    } catch (error) {
      // A retried PUT or Complete whose first attempt went through (its answer was lost) finds
      // the object stored or the upload gone: when the object is whole, only registration is left.
      const gone = error instanceof S3RequestError && (error.code === 'PreconditionFailed' || error.code === 'NoSuchUpload');
      if (!gone || !(await this.registerIfStored(item))) throw error;
      return;
    }

    if (record.uploadType === 'asset' && item.assetId === null) {
      const key = record.key!;
      const asset = await this.attempt(item, () => this.options.api.registerAsset(record.projectId, { name: record.name ?? sanitizeFileName(record.fileName), path: key, type: record.type, size: record.size }));
      item.assetId = asset.id;
    }
  }

  /** The bytes: one PUT, or the multipart upload from where the store stands. */
  private async transfer(item: Item, file: Blob): Promise<void> {
    const record = item.record;
    const key = record.key!;
    const s3 = this.clientFor(record.projectId, record.uploadType);
    const plan = planParts(record.size);

    if (plan.mode === 'single') {
      if (!record.completed) {
        await this.pool.run(
          () =>
            this.attempt(item, (signal) => {
              item.inflight.delete(1);
              return s3.putObject(key, file, record.contentType, { signal, onUploadProgress: (loaded) => this.progress(item, 1, loaded) });
            }),
          record.uid,
        );
        item.inflight.delete(1);
        record.completed = true;
        await this.persist(record);
      }
      item.doneBytes = record.size;
    } else if (!record.completed) {
      record.partSize = plan.partSize;
      record.partCount = plan.parts.length;
      let done = new Map(record.parts.map((part) => [part.PartNumber, part.ETag] as const));
      if (record.uploadId) {
        const uploadId = record.uploadId;
        const listed = await this.attempt(item, (signal) => s3.listParts(key, uploadId, { signal }));
        if (listed === null && (await this.registerIfStored(item))) {
          record.completed = true;
          return;
        }
        done = listed === null ? new Map() : reconcileParts(plan.parts, record.parts, listed).done;
        if (listed === null) record.uploadId = null;
      }
      if (!record.uploadId) {
        record.uploadId = await this.attempt(item, (signal) => s3.createMultipartUpload(key, record.contentType, { signal }));
        done = new Map();
      }
      record.parts = partRecords(done);
      item.doneBytes = plan.parts.filter((part) => done.has(part.partNumber)).reduce((sum, part) => sum + part.size, 0);
      await this.persist(record);
      await this.sendParts(item, s3, plan.parts, done);
      const uploadId = record.uploadId;
      try {
        await this.attempt(item, (signal) => s3.completeMultipartUpload(key, uploadId, partRecords(done).map((p) => ({ partNumber: p.PartNumber, etag: p.ETag })), { signal }));
      } catch (error) {
        // A part the store does not hold as recorded: reconcile once more and send what is missing.
        if (!(error instanceof S3RequestError && (error.code === 'InvalidPart' || error.code === 'InvalidPartOrder'))) throw error;
        const listed = await this.attempt(item, (signal) => s3.listParts(key, uploadId, { signal }));
        if (listed === null) throw error;
        done = reconcileParts(plan.parts, record.parts, listed).done;
        record.parts = partRecords(done);
        item.doneBytes = plan.parts.filter((part) => done.has(part.partNumber)).reduce((sum, part) => sum + part.size, 0);
        await this.persist(record);
        await this.sendParts(item, s3, plan.parts, done);
        await this.attempt(item, (signal) => s3.completeMultipartUpload(key, uploadId, partRecords(done).map((p) => ({ partNumber: p.PartNumber, etag: p.ETag })), { signal }));
      }
      // From here a reload goes straight to registration.
      record.completed = true;
      await this.persist(record);
    } else {
      item.doneBytes = record.size;
    }
  }

  /**
   * The multipart upload is gone (completed before the tab died, or aborted): when the object
   * is stored whole, registering it is all that was left to do.
   */
  private async registerIfStored(item: Item): Promise<boolean> {
    const record = item.record;
    if (record.uploadType !== 'asset' || !record.key) return false;
    try {
      const asset = await this.attempt(item, () => this.options.api.registerAsset(record.projectId, { name: record.name ?? sanitizeFileName(record.fileName), path: record.key!, type: record.type, size: record.size }));
      item.assetId = asset.id;
      item.doneBytes = record.size;
      record.completed = true;
      return true;
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 400) return false;
      throw error;
    }
  }

  /** The missing parts, `parallel` at a time over all files; IndexedDB is written after every part. */
  private async sendParts(item: Item, s3: S3Client, parts: PlannedPart[], done: Map<number, string>): Promise<void> {
    const record = item.record;
    const missing = parts.filter((part) => !done.has(part.partNumber));
    const file = item.file!;
    await forEachConcurrently(missing, this.options.parallel, (part) =>
      this.pool.run(async () => {
        if (isCancelled(item) || !this.online) throw isCancelled(item) ? new Cancelled() : new Paused();
        const etag = await this.attempt(item, (signal) => {
          item.inflight.delete(part.partNumber);
          return s3.uploadPart(record.key!, record.uploadId!, part.partNumber, file.slice(part.start, part.end), { signal, onUploadProgress: (loaded) => this.progress(item, part.partNumber, loaded) });
        });
        item.inflight.delete(part.partNumber);
        item.doneBytes += part.size;
        done.set(part.partNumber, etag);
        record.parts = partRecords(done);
        await this.persist(record);
        this.emit();
      }, record.uid),
    );
  }

  /**
   * One request with A§4's policy: up to `attempts` tries, 200 ms apart, for network trouble,
   * 5xx, throttling and expired credentials (new ones are fetched first). Offline pauses
   * instead of spending attempts; other answers fail at once.
   */
  private async attempt<T>(item: Item, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      if (isCancelled(item)) throw new Cancelled();
      if (!this.online) throw new Paused();
      const signal = item.controller?.signal ?? new AbortController().signal;
      try {
        return await request(signal);
      } catch (error) {
        const { status, code, aborted } = failureOf(error);
        if (aborted || isCancelled(item) || signal.aborted) throw error instanceof TransportError ? error : new TransportError('aborted', true);
        if (!this.online) throw new Paused();
        const renew = needsNewCredentials(status, code);
        if (renew) this.forgetSession(item.record.projectId, item.record.uploadType);
        if (!renew && !isRetryable(status, code)) throw error;
        if (attempt >= this.options.attempts) throw error;
        await this.options.sleep(this.options.retryDelayMs >= 0 ? this.options.retryDelayMs : retryDelay(attempt));
      }
    }
  }

  // ——— Credentials ———

  private sessionKey(projectId: number, uploadType: UploadType): string {
    return `${projectId}:${uploadType}`;
  }

  private clientFor(projectId: number, uploadType: UploadType): S3Client {
    const key = this.sessionKey(projectId, uploadType);
    let entry = this.sessions.get(key);
    if (!entry) {
      const holder: { client: S3Client; session: S3Session | null; pending: Promise<S3Session> | null } = { client: null as unknown as S3Client, session: null, pending: null };
      holder.client = createS3Client(this.options.transport, () => this.session(holder, projectId, uploadType));
      this.sessions.set(key, holder);
      entry = holder;
    }
    return entry.client;
  }

  /** Current credentials for a project, renewed 5 minutes before they expire. */
  private async session(holder: { session: S3Session | null; pending: Promise<S3Session> | null }, projectId: number, uploadType: UploadType): Promise<S3Session> {
    const now = this.options.now();
    if (holder.session && holder.session.expiresAt - (now + holder.session.clockOffsetMs) > CREDENTIALS_REFRESH_MARGIN_MS) return holder.session;
    holder.pending ??= this.options.api
      .credentials(projectId, uploadType)
      .then((c) => {
        const session: S3Session = {
          endpoint: c.endpoint,
          bucket: c.bucket,
          region: c.region,
          forcePathStyle: c.forcePathStyle,
          accessKeyId: c.accessKeyId,
          secretAccessKey: c.secretAccessKey,
          sessionToken: c.sessionToken,
          expiresAt: Date.parse(c.expiration),
          clockOffsetMs: Date.parse(c.serverTime) - this.options.now(),
        };
        holder.session = session;
        if (this.options.partsFor) this.pool.setSize(Math.max(1, this.options.partsFor(c.endpoint)));
        return session;
      })
      .finally(() => {
        holder.pending = null;
      });
    return holder.pending;
  }

  private forgetSession(projectId: number, uploadType: UploadType): void {
    const entry = this.sessions.get(this.sessionKey(projectId, uploadType));
    if (entry) entry.session = null;
  }

  // ——— Quota, progress, persistence ———

  /** C§5: the batch plus what is still to be uploaded must fit in the remaining storage. */
  private async fits(bytes: number): Promise<boolean> {
    let figures;
    try {
      figures = await this.options.api.storage(this.options.organizationId);
    } catch {
      // Unknown now (offline): the server refuses past the quota at registration anyway.
      return true;
    }
    const pending = [...this.items.values()].filter((item) => item.record.uploadType === 'asset' && item.phase !== 'done' && item.phase !== 'cancelled' && item.record.error !== UPLOAD_MESSAGES.noMoreMemory).reduce((sum, item) => sum + item.record.size, 0);
    return quotaAllows(bytes, figures, pending);
  }

  private progress(item: Item, partNumber: number, loaded: number): void {
    const before = item.inflight.get(partNumber) ?? 0;
    if (loaded <= before) return;
    item.inflight.set(partNumber, loaded);
    item.sent += loaded - before;
    this.globalSent += loaded - before;
    this.emit();
  }

  private async persist(record: UploadRecord): Promise<void> {
    if (this.destroyed) return;
    await this.options.store.put(record);
  }

  private view(item: Item, now: number): UploadItemView {
    const record = item.record;
    const inflight = [...item.inflight.values()].reduce((sum, n) => sum + n, 0);
    const status = STATUS_OF[item.phase];
    const needs = needsOf(item.phase);
    const loaded = Math.min(record.size, item.phase === 'done' ? record.size : item.doneBytes + inflight);
    const speed = item.phase === 'uploading' ? rateFromSamples(item.samples, now) : 0;
    return {
      uid: record.uid,
      projectId: record.projectId,
      type: record.type,
      uploadType: record.uploadType,
      fileName: record.fileName,
      name: record.name ?? sanitizeFileName(record.fileName),
      key: record.key,
      size: record.size,
      lastModified: record.lastModified,
      status,
      paused: item.phase === 'paused' || (!this.online && ACTIVE.includes(status)),
      loaded,
      percent: percentOf(loaded, record.size),
      speed,
      secondsLeft: status === 'done' ? 0 : secondsLeft(record.size - loaded, speed),
      error: record.error ?? (needs === 'file' ? UPLOAD_MESSAGES.needsFile : needs === 'permission' ? UPLOAD_MESSAGES.needsPermission : null),
      needs,
      hasHandle: Boolean(record.handle),
      assetId: item.assetId,
    };
  }

  /** Sends a snapshot: at once for status changes, at most every `emitEveryMs` for progress. */
  private emit(now = false): void {
    if (!this.options.onChange || this.destroyed) return;
    if (this.emitTimer && !now) return;
    if (this.emitTimer) clearTimeout(this.emitTimer);
    const send = () => {
      this.emitTimer = null;
      const at = this.options.now();
      // Idle time never counts in the speed: the window restarts with the first upload after a pause.
      const active = this.uploading() > 0;
      this.globalSamples = active ? [...this.globalSamples.filter((s) => at - s.at <= 10_000), { at, bytes: this.globalSent }] : [];
      for (const item of this.items.values()) item.samples = [...item.samples.filter((s) => at - s.at <= 10_000), { at, bytes: item.sent }];
      this.options.onChange?.(this.snapshot());
    };
    if (now) send();
    else this.emitTimer = setTimeout(send, this.options.emitEveryMs);
  }
}

function doneBytesOf(record: UploadRecord): number {
  if (record.status === 'done') return record.size;
  if (!record.partSize || record.parts.length === 0) return 0;
  const partSize = record.partSize;
  return record.parts.reduce((sum, part) => sum + Math.min(partSize, record.size - (part.PartNumber - 1) * partSize), 0);
}
