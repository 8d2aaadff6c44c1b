import {
  UPLOAD_MESSAGES,
  deliverableKey,
  isRetryable,
  STORAGE_FULL,
  needsNewCredentials,
  percentOf,
  retryDelay,
  sanitizeFileName,
  secondsLeft,
  type PartPlan,
  type PlannedPart,
  type UploadType,
} from '@/domain/uploads.ts';
import { NO_MEMORY_CODE } from '@/domain/contract/uploads.ts';
import { crc32OfRuns } from '@/domain/crc32.ts';
import { forEachConcurrently, partRecords, reconcileParts, type SlotPool } from '../multipart.ts';
import { S3RequestError, type ListedPart, type S3Client } from '../s3-client.ts';
import { ApiFailure, type ServerApi } from '../server-api.ts';
import { TransportError } from '../transport.ts';
import type { FileSystemFileHandleLike, UploadRecord } from '../upload-store.ts';
import { ACTIVE_STATUSES, STATUS_OF, needsOf, storedPhaseOf, type Phase, type StopReason } from './phase.ts';
import { FileProgress, storedBytesOf, type SpeedMeter } from './progress-meter.ts';
import type { UploadRecords } from './upload-records.ts';
import type { UploadItemView } from './types.ts';
import { blobCrc32 } from './blob-crc32.ts';
import { fileFingerprint } from './file-fingerprint.ts';

/**
 * One file's upload (ARCHITECTURE §4): its phase, its record, and the steps from check-name to
 * registration. The bytes go in one PUT under 20 MiB, else in 20,971,520-byte parts sent in
 * the scheduler's shared slots, each tried up to 20 times 200 ms apart; finished parts are
 * recorded in IndexedDB in the background (at most once a second), and a multipart upload
 * resumes from the parts the store lists. Issue 35: every body goes with the CRC-32 of its bytes as
 * read here, so the store refuses (BadDigest, then sent again) any that change on the way; the
 * whole file's CRC-32, combined from its parts', completes the upload and is registered.
 */

/** What a file's upload needs from the engine around it. */
export interface UploadContext {
  api: ServerApi;
  s3(projectId: number, uploadType: UploadType): S3Client;
  /** The store refused the credentials: the next request fetches new ones. */
  forgetCredentials(projectId: number, uploadType: UploadType): void;
  records: UploadRecords;
  /** How a file of `size` bytes is sent: planParts (A§4, A§9). */
  plan(size: number): PartPlan;
  /** Part slots shared by every file. */
  slots: SlotPool;
  /** Parts of this file in flight at most (they still wait for a shared slot). */
  parallel: number;
  attempts: number;
  /** Pause between attempts; undefined: A§4's 200 ms. */
  retryDelayMs: number | undefined;
  sleep(ms: number): Promise<void>;
  now(): number;
  isOnline(): boolean;
  /** Issue 35: the person paused every upload: a stopped one stays paused. */
  isHeld(): boolean;
  /** The page went away: requests in flight finish, no new one starts. */
  isDraining(): boolean;
  /** The engine of the page before a reload, still finishing its requests (null: none). */
  previous(): PreviousEngine | null;
  /** Something to show changed: at once (a phase), or throttled (progress). */
  announce(now?: boolean): void;
  /**
   * Whether a part of `partSize` bytes about to be sent should report its bytes while they go
   * (partProgressWanted): if so, a function to call once its request ended, else null.
   */
  reportPart(partSize: number): (() => void) | null;
}

/**
 * What a reloaded page's engine needs of the engine before it, which drains in the same shared
 * worker (UploadEngine: `drain`): the requests it still has in flight for an upload are waited
 * for — their parts are then stored once, and listed by ListParts — and shown as this upload's
 * progress meanwhile; what it stored is taken over from its memory.
 */
export interface PreviousEngine {
  /** Settles once none of `uid`'s requests is in flight there any more (nor in the engines before it). */
  finished(uid: string): Promise<void>;
  /** `uid` as the newest engine that had it left it (its record, progress and asset), or null. */
  latest(uid: string): FileUpload | null;
  /** Stops `uid`'s requests there at once (it was cancelled here). */
  abandon(uid: string): void;
  /** Calls `listener` when its progress moves; answers how to stop. */
  follow(listener: () => void): () => void;
}

interface Outcome {
  phase: Phase;
  error: string | null;
}

export function sameFile(
  record: Pick<UploadRecord, 'fileName' | 'size' | 'lastModified'>,
  file: { name: string; size: number; lastModified: number },
): boolean {
  return record.fileName === file.name && record.size === file.size && record.lastModified === file.lastModified;
}

/** A store's no to the checksums asked for (rather than to the bytes): S3-compatible stores without FULL_OBJECT CRC32. */
function refusesChecksums(error: unknown): boolean {
  return (
    error instanceof S3RequestError &&
    (error.code === 'BadDigest' || error.code === 'InvalidRequest' || error.code === 'NotImplemented' || error.status === 501)
  );
}

export function failureOf(error: unknown): { status: number; code: string | undefined; aborted: boolean } {
  if (error instanceof TransportError) return { status: 0, code: undefined, aborted: error.aborted };
  if (error instanceof S3RequestError) return { status: error.status, code: error.code, aborted: false };
  if (error instanceof ApiFailure) return { status: error.status, code: undefined, aborted: false };
  return { status: -1, code: undefined, aborted: false };
}

export class FileUpload {
  readonly record: UploadRecord;
  file: Blob | null;
  phase: Phase;
  assetId: number | null = null;
  /** Issue 35: the asset was made from the organization's stored copy of this file (no byte sent). */
  reused = false;
  readonly progress: FileProgress;
  private readonly context: UploadContext;
  /** The running attempt's controller; aborted with a StopReason. */
  private controller: AbortController | null = null;
  /**
   * True until the engine before a reload has no request of this upload in flight any more
   * and what it stored is this record's (`takeOver`); its bytes are shown as this upload's meanwhile.
   */
  handingOver: boolean;
  /** Settles when the hand-over is done. */
  readonly handedOver: Promise<void>;

  constructor(record: UploadRecord, file: Blob | null, context: UploadContext, total: SpeedMeter) {
    this.record = record;
    this.file = file;
    this.phase = file ? 'queued' : 'needs-file';
    this.context = context;
    this.progress = new FileProgress(storedBytesOf(record), total);
    const previous = context.previous();
    this.handingOver = previous !== null;
    this.handedOver = previous
      ? previous
          .finished(record.uid)
          .then(() => this.takeOver())
          .catch(() => undefined)
      : Promise.resolve();
  }

  get uid(): string {
    return this.record.uid;
  }

  get hasFile(): boolean {
    return this.file !== null;
  }

  get createdAt(): number {
    return this.record.createdAt;
  }

  /** Sets the phase (and the record's status and error with it) in one step. */
  settle(phase: Phase, error: string | null = null): void {
    this.phase = phase;
    this.record.status = STATUS_OF[phase];
    this.record.error = error;
    const stored = storedPhaseOf(phase);
    if (stored) this.record.phase = stored;
    else delete this.record.phase;
  }

  requeue(): void {
    this.settle('queued');
  }

  /** The file given again (picked or dropped); the caller stores the record. */
  attach(file: File, handle?: FileSystemFileHandleLike): void {
    this.file = file;
    if (handle) this.record.handle = handle;
    this.requeue();
  }

  /** Gets the file of a stored upload back through its handle, when the browser still allows it. */
  async reopen(openHandle: (handle: FileSystemFileHandleLike) => Promise<File>): Promise<void> {
    const handle = this.record.handle;
    if (!handle) {
      this.settle('needs-file');
      return;
    }
    try {
      const file = await openHandle(handle);
      if (!sameFile(this.record, file)) {
        this.settle('needs-file', UPLOAD_MESSAGES.notSameFile);
        return;
      }
      this.file = file;
      this.requeue();
    } catch {
      // NotAllowedError: access must be granted again, with a click (browser restart).
      this.settle('needs-permission');
    }
  }

  /** Stops the running requests; the run ends with the phase the reason leads to. */
  stop(reason: StopReason): void {
    this.controller?.abort(reason);
  }

  /** Removed by the user: nothing more is stored or shown, even by a run still stopping. */
  cancel(): void {
    this.phase = 'cancelled';
    this.stop('cancel');
  }

  /**
   * While handing over: the bytes the engine before a reload holds or is sending for this
   * upload count as its own (the percentage and the speed go on moving).
   */
  followPrevious(): void {
    if (!this.handingOver) return;
    const prior = this.context.previous()?.latest(this.uid);
    if (prior && prior !== this) this.progress.inherit(prior.progress.loaded(prior.record.size));
  }

  /**
   * The engine before a reload is done with this upload: what it stored (the name and key, the
   * multipart upload and its parts, a whole object, a registered asset) becomes this record's.
   * Read from its memory, which is never behind IndexedDB: it writes parts in the background,
   * and this engine may have written its own copy since (a file picked again).
   */
  private async takeOver(): Promise<void> {
    const prior = this.context.previous()?.latest(this.uid);
    this.handingOver = false;
    this.progress.endInheritance();
    if (!prior || prior === this || this.phase === 'cancelled') return;
    const { name, key, uploadId, partSize, partCount, parts, completed, checksums, crc32 } = prior.record;
    Object.assign(this.record, { name, key, uploadId, partSize, partCount, parts: [...parts] });
    if (completed) this.record.completed = true;
    if (checksums) this.record.checksums = true;
    if (crc32 !== undefined) this.record.crc32 = crc32;
    this.assetId ??= prior.assetId;
    if (prior.reused) this.reused = true;
    const registered = prior.phase === 'done';
    this.progress.setStored(registered ? this.record.size : storedBytesOf(this.record));
    if (registered && this.phase !== 'uploading') {
      // Stored and registered before its requests ended: nothing is left to do, not even picking the file.
      this.settle('done');
      await this.context.records.forget(this.uid);
    } else {
      await this.context.records.save(this.record);
    }
    this.context.announce(true);
  }

  /**
   * The engine before a reload may still be sending parts of this very upload: the upload is
   * shown going on at once, and waits for them — the record and the store's list of parts are
   * complete only once they are over. A stop (offline, cancelled, closed) ends the wait.
   */
  private async afterHandOver(signal: AbortSignal): Promise<void> {
    if (this.handingOver) this.context.announce(true);
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new TransportError('aborted', true));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      void this.handedOver.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  /**
   * One run, from where the record stands to done or to the phase its failure leads to, stored
   * before it is set. False when the run ended cancelled or closed: nothing more to show.
   */
  async run(): Promise<boolean> {
    const controller = new AbortController();
    this.controller = controller;
    this.settle('uploading');
    let next: Outcome;
    try {
      await this.afterHandOver(controller.signal);
      await this.context.records.save(this.record);
      this.context.announce(true);
      await this.upload();
      // Stored first, announced after: a reload never finds a record the list no longer shows.
      await this.context.records.forget(this.uid);
      next = { phase: 'done', error: null };
      this.progress.setStored(this.record.size);
    } catch (error) {
      next = this.outcomeOf(error, controller.signal);
      if (next.error === UPLOAD_MESSAGES.tooLargeForProxy) this.reportProxyRefusal();
      if (next.phase !== 'cancelled' && this.phase !== 'cancelled' && controller.signal.reason !== 'close' && !this.context.isDraining())
        await this.context.records.saveOutcome(this.record, next.phase, next.error);
    }
    this.progress.dropInflight();
    this.controller = null;
    // A cancelled upload left the list while its requests were stopping: nothing more to show.
    // Drained (the page went away): the record keeps what the finished parts wrote, as after a closed tab.
    if (this.phase === 'cancelled' || controller.signal.reason === 'close' || (this.context.isDraining() && next.phase !== 'done')) return false;
    this.settle(next.phase === 'paused' && this.context.isOnline() && !this.context.isHeld() ? 'queued' : next.phase, next.error);
    return true;
  }

  view(now: number, online: boolean): UploadItemView {
    const record = this.record;
    const status = STATUS_OF[this.phase];
    const needs = needsOf(this.phase);
    const refused = this.phase === 'refused';
    // Refused: the server discarded whatever was sent, so nothing of it counts as uploaded.
    const loaded = this.phase === 'done' ? record.size : refused ? 0 : this.progress.loaded(record.size);
    const speed = this.phase === 'uploading' ? this.progress.speed.bytesPerSecond(now) : 0;
    return {
      uid: record.uid,
      projectId: record.projectId,
      type: record.type,
      uploadType: record.uploadType,
      fileName: record.fileName,
      folder: record.folder ?? null,
      name: record.name ?? sanitizeFileName(record.fileName),
      key: record.key,
      size: record.size,
      lastModified: record.lastModified,
      status,
      paused: this.phase === 'paused' || (!online && ACTIVE_STATUSES.includes(status)),
      held: this.phase === 'paused' && this.context.isHeld(),
      loaded,
      percent: percentOf(loaded, record.size),
      speed,
      secondsLeft: status === 'done' ? 0 : refused ? null : secondsLeft(record.size - loaded, speed),
      error: record.error ?? (needs === 'file' ? UPLOAD_MESSAGES.needsFile : needs === 'permission' ? UPLOAD_MESSAGES.needsPermission : null),
      needs,
      refused,
      hasHandle: Boolean(record.handle),
      assetId: this.assetId,
      reused: this.reused,
    };
  }

  // ——— The steps ———

  private get signal(): AbortSignal {
    return this.controller!.signal;
  }

  private get s3(): S3Client {
    return this.context.s3(this.record.projectId, this.record.uploadType);
  }

  private async upload(): Promise<void> {
    const record = this.record;
    if (!record.key) {
      if (record.uploadType === 'asset') {
        if (await this.reuseStoredCopy()) return;
        const checked = await this.attempt(() => this.context.api.checkName(record.projectId, record.type, record.fileName));
        record.name = checked.name;
        record.key = checked.location;
      } else {
        record.name = sanitizeFileName(record.fileName);
        record.key = deliverableKey(record.projectId, this.context.now(), record.name);
      }
      await this.context.records.save(record);
    }
    try {
      await this.transfer(this.file!);
    } catch (error) {
      // A retried PUT or Complete whose first attempt went through (its answer was lost) finds
      // the object stored or the upload gone: when the object is whole, only registration is left.
      const gone = error instanceof S3RequestError && (error.code === 'PreconditionFailed' || error.code === 'NoSuchUpload');
      if (!gone || !(await this.registerIfStored())) throw error;
      return;
    }
    if (record.uploadType === 'asset' && this.assetId === null) await this.register();
  }

  /**
   * Issue 35: when the organization holds this very file already (the same size and
   * fingerprint, then the same CRC-32 over every byte, read here and compared by the server),
   * the asset is made from its stored copy and no byte is sent. False when there is none, or when
   * asking fails in any way but a stop: the file is then uploaded, as it would have been.
   */
  private async reuseStoredCopy(): Promise<boolean> {
    try {
      return await this.reuseIfStored();
    } catch (error) {
      if (failureOf(error).aborted || this.signal.aborted) throw error;
      return false;
    }
  }

  private async reuseIfStored(): Promise<boolean> {
    const record = this.record;
    const file = this.file!;
    const { api } = this.context;
    this.checkpoint();
    const fingerprint = await fileFingerprint(file, this.signal);
    const { found } = await this.attempt(() => api.lookupStoredCopy(record.projectId, { size: record.size, fingerprint }));
    if (!found) return false;
    const crc32 = await this.readCrc32(file);
    // 404: no stored copy with this CRC-32 (the file differs where the fingerprint does not look), or it went meanwhile.
    const asset = await this.attempt(() =>
      api.reuseStoredCopy(record.projectId, {
        name: record.name ?? sanitizeFileName(record.fileName),
        type: record.type,
        size: record.size,
        fingerprint,
        crc32,
        ...(record.folder && { folder: record.folder }),
      }),
    );
    this.assetId = asset.id;
    this.reused = true;
    record.name = asset.name;
    record.crc32 = crc32;
    record.completed = true;
    this.progress.setStored(record.size);
    return true;
  }

  private async register(): Promise<void> {
    const record = this.record;
    const path = record.key!;
    const asset = await this.attempt(() =>
      this.context.api.registerAsset(record.projectId, {
        name: record.name ?? sanitizeFileName(record.fileName),
        path,
        type: record.type,
        size: record.size,
        ...(record.folder && { folder: record.folder }),
        ...(record.crc32 !== undefined && { crc32: record.crc32 }),
      }),
    );
    this.assetId = asset.id;
  }

  /** The bytes: one PUT, or the multipart upload from where the store stands. */
  private async transfer(file: Blob): Promise<void> {
    const record = this.record;
    const plan = this.context.plan(record.size);
    if (record.completed) {
      this.progress.setStored(record.size);
    } else if (plan.mode === 'single') {
      await this.putWhole(file);
    } else {
      await this.sendMultipart(plan.partSize, plan.parts);
    }
  }

  private async putWhole(file: Blob): Promise<void> {
    const record = this.record;
    const key = record.key!;
    const s3 = this.s3;
    // At most one part's bytes (20 MiB): read once for the CRC-32 before any slot is taken.
    const crc32 = await this.readCrc32(file);
    record.crc32 = crc32;
    await this.context.slots.run(
      () =>
        this.attempt((signal) => {
          this.progress.restart(1);
          return s3.putObject(key, file, record.contentType, { signal, crc32, onUploadProgress: (loaded) => this.reportProgress(1, loaded) });
        }),
      record.uid,
    );
    this.progress.restart(1);
    this.progress.setStored(record.size);
    record.completed = true;
    await this.context.records.save(record);
  }

  private async sendMultipart(partSize: number, parts: PlannedPart[]): Promise<void> {
    const record = this.record;
    const key = record.key!;
    const s3 = this.s3;
    record.partSize = partSize;
    record.partCount = parts.length;
    let done = new Map(record.parts.map((part) => [part.PartNumber, part.ETag] as const));
    let crcs = new Map(record.parts.flatMap((part) => (part.CRC32 === undefined ? [] : [[part.PartNumber, part.CRC32] as const])));
    const reconcile = (listed: ListedPart[]) => {
      ({ done, crcs } = reconcileParts(parts, record.parts, listed));
    };
    if (record.uploadId) {
      const uploadId = record.uploadId;
      const listed = await this.attempt((signal) => s3.listParts(key, uploadId, { signal }));
      if (listed === null && (await this.registerIfStored())) return;
      if (listed === null) record.uploadId = null;
      else reconcile(listed);
    }
    if (!record.uploadId) {
      const create = (checksums: boolean) => this.attempt((signal) => s3.createMultipartUpload(key, record.contentType, { signal, checksums }));
      try {
        record.uploadId = await create(true);
        record.checksums = true;
      } catch (error) {
        // A store that does not take whole-object CRC32 uploads (an older S3-compatible one): the
        // file goes without checksums, as before; the media worker's read-back still verifies it.
        if (!refusesChecksums(error)) throw error;
        record.uploadId = await create(false);
        delete record.checksums;
      }
      done = new Map();
      crcs = new Map();
    }
    const uploadId = record.uploadId;
    await this.recordParts(parts, done, crcs);
    await this.sendParts(parts, done, crcs);
    // The whole file's CRC-32 from its parts' (an upload begun before checksums has none).
    const crc32 = record.checksums ? await this.wholeCrc32(parts, crcs) : undefined;
    if (crc32 !== undefined) record.crc32 = crc32;
    let whole = crc32;
    const complete = () =>
      this.attempt(async (signal) => {
        try {
          return await s3.completeMultipartUpload(
            key,
            uploadId,
            partRecords(done, crcs).map((p) => ({ partNumber: p.PartNumber, etag: p.ETag, ...(p.CRC32 !== undefined && { crc32: p.CRC32 }) })),
            { signal, ...(whole !== undefined && { crc32: whole }) },
          );
        } catch (error) {
          // Every part's bytes were checked on arrival: a store that refuses the whole CRC-32
          // made it otherwise (composite), and sending it again would get the same answer.
          if (whole !== undefined && refusesChecksums(error)) {
            whole = undefined;
            throw new TransportError('the store computes whole-object checksums otherwise: completed without', false);
          }
          throw error;
        }
      });
    try {
      await complete();
    } catch (error) {
      // A part the store does not hold as recorded: reconcile once more and send what is missing.
      if (!(error instanceof S3RequestError && (error.code === 'InvalidPart' || error.code === 'InvalidPartOrder'))) throw error;
      const listed = await this.attempt((signal) => s3.listParts(key, uploadId, { signal }));
      if (listed === null) throw error;
      reconcile(listed);
      await this.recordParts(parts, done, crcs);
      await this.sendParts(parts, done, crcs);
      await complete();
    }
    // From here a reload goes straight to registration.
    record.completed = true;
    await this.context.records.save(record);
  }

  /** The parts the store holds become the record's, and the bytes shown. */
  private async recordParts(parts: PlannedPart[], done: Map<number, string>, crcs: Map<number, number>): Promise<void> {
    this.record.parts = partRecords(done, crcs);
    this.progress.setStored(parts.filter((part) => done.has(part.partNumber)).reduce((sum, part) => sum + part.size, 0));
    await this.context.records.save(this.record);
  }

  /**
   * The multipart upload is gone (completed before the tab died, or aborted): when the object
   * is stored whole, registering it is all that was left to do.
   */
  private async registerIfStored(): Promise<boolean> {
    const record = this.record;
    if (record.uploadType !== 'asset' || !record.key) return false;
    try {
      await this.register();
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 400) return false;
      throw error;
    }
    this.progress.setStored(record.size);
    record.completed = true;
    return true;
  }

  /** The missing parts, in the scheduler's shared slots; the record follows in the background (`UploadRecords.saveSoon`). */
  private async sendParts(parts: PlannedPart[], done: Map<number, string>, crcs: Map<number, number>): Promise<void> {
    const record = this.record;
    const key = record.key!;
    const uploadId = record.uploadId!;
    const s3 = this.s3;
    const file = this.file!;
    const missing = parts.filter((part) => !done.has(part.partNumber));
    try {
      await forEachConcurrently(missing, this.context.parallel, async (part) => {
        const body = file.slice(part.start, part.end);
        // Read before asking for a slot: one part's CRC-32 is computed while others are on the wire.
        const crc32 = record.checksums ? await this.readCrc32(body) : undefined;
        await this.context.slots.run(async () => {
          // A slot can come free long after it was asked for: the upload may be stopped by now.
          this.checkpoint();
          const etag = await this.attempt(async (signal) => {
            this.progress.restart(part.partNumber);
            const reported = this.context.reportPart(part.size);
            const onUploadProgress = reported && ((loaded: number) => this.reportProgress(part.partNumber, loaded));
            try {
              return await s3.uploadPart(key, uploadId, part.partNumber, body, {
                signal,
                ...(crc32 !== undefined && { crc32 }),
                ...(onUploadProgress && { onUploadProgress }),
              });
            } finally {
              reported?.();
            }
          });
          this.progress.partStored(part.partNumber, part.size);
          done.set(part.partNumber, etag);
          if (crc32 !== undefined) crcs.set(part.partNumber, crc32);
          record.parts = partRecords(done, crcs);
          // Written in the background: the slot goes to the next part at once.
          this.context.records.saveSoon(record);
          this.context.announce();
        }, record.uid);
      });
    } finally {
      await this.context.records.flush(record.uid);
    }
  }

  /** The CRC-32 of `bytes` as read now; stops with the upload. */
  private readCrc32(bytes: Blob): Promise<number> {
    this.checkpoint();
    return blobCrc32(bytes, this.signal);
  }

  /**
   * The whole file's CRC-32, combined from every part's. A part whose CRC is not known (the store
   * listed none for it) is read again here: what is registered is always this device's reading.
   */
  private async wholeCrc32(parts: PlannedPart[], crcs: Map<number, number>): Promise<number> {
    const runs: { crc32: number; size: number }[] = [];
    for (const part of parts) {
      let crc32 = crcs.get(part.partNumber);
      if (crc32 === undefined) {
        crc32 = await this.readCrc32(this.file!.slice(part.start, part.end));
        crcs.set(part.partNumber, crc32);
      }
      runs.push({ crc32, size: part.size });
    }
    return crc32OfRuns(runs);
  }

  private reportProgress(partNumber: number, loaded: number): void {
    if (this.progress.report(partNumber, loaded)) this.context.announce();
  }

  /**
   * One request with A§4's policy: up to `attempts` tries, 200 ms apart, for network trouble,
   * 5xx, throttling and expired credentials (new ones are fetched first). Offline pauses
   * instead of spending attempts; other answers fail at once.
   */
  private async attempt<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const signal = this.signal;
    for (let attempt = 1; ; attempt += 1) {
      this.checkpoint();
      try {
        return await request(signal);
      } catch (error) {
        const { status, code, aborted } = failureOf(error);
        if (aborted || signal.aborted) throw error instanceof TransportError ? error : new TransportError('aborted', true);
        this.checkpoint();
        const renew = needsNewCredentials(status, code);
        if (renew) this.context.forgetCredentials(this.record.projectId, this.record.uploadType);
        if (!renew && !isRetryable(status, code)) throw error;
        if (attempt >= this.context.attempts) throw error;
        await this.context.sleep(this.context.retryDelayMs ?? retryDelay(attempt));
      }
    }
  }

  /** Goes no further once stopped; with the network gone the upload pauses rather than spending attempts. */
  private checkpoint(): void {
    if (!this.context.isOnline()) this.stop('pause');
    if (this.signal.aborted || this.context.isDraining()) throw new TransportError('aborted', true);
  }

  /**
   * The server never sees what a proxy refused: it is told (for the operator's log), in the
   * background. The largest request this upload sends is the one refused, or one of its size.
   */
  private reportProxyRefusal(): void {
    const plan = this.context.plan(this.record.size);
    const bytes = plan.mode === 'single' ? plan.size : plan.partSize;
    this.context.api.reportProxyRefusal(this.record.projectId, bytes).catch(() => undefined);
  }

  /** The phase a failed run leads to, with the message the person reads. */
  private outcomeOf(error: unknown, signal: AbortSignal): Outcome {
    const reason = signal.aborted ? (signal.reason as StopReason) : null;
    if (reason === 'cancel') return { phase: 'cancelled', error: null };
    const { aborted, status } = failureOf(error);
    if (reason === 'pause' || (aborted && !this.context.isOnline())) return { phase: 'paused', error: null };
    if (error instanceof ApiFailure && error.code === NO_MEMORY_CODE) return { phase: 'refused', error: UPLOAD_MESSAGES.noMoreMemory };
    if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) return { phase: 'refused', error: error.message };
    // The store's disk is full: the file is fine and what was sent is kept; resumed by hand once there is room.
    if (status === STORAGE_FULL) return { phase: 'stopped', error: UPLOAD_MESSAGES.storageFull };
    if (isRetryable(status)) return { phase: 'failed', error: UPLOAD_MESSAGES.failedAfterRetries };
    // A 413 on the store's path is a proxy's (S3 stores answer too large with their 400): the file
    // is fine, the way to the store is not. Said plainly, resumed by hand once the limit is raised.
    if (error instanceof S3RequestError && status === 413) return { phase: 'stopped', error: UPLOAD_MESSAGES.tooLargeForProxy };
    // The store's own no (403 for a credential no longer allowed, 400…): the same request gets it again.
    if (error instanceof S3RequestError && status >= 400 && status < 500) return { phase: 'refused', error: error.message };
    return { phase: 'stopped', error: error instanceof Error ? error.message : String(error) };
  }
}
