import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { AssetType, UploadType } from '@/domain/uploads.ts';

/**
 * The resume state of every upload, in IndexedDB (ARCHITECTURE §4): written when a file is
 * queued, when its key and multipart upload id are known, and as parts finish (at most once a
 * second per upload, workers/upload/upload-records.ts; ListParts is the truth on resume).
 */

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'incomplete';

export interface StoredPartRecord {
  PartNumber: number;
  ETag: string;
  /** Issue 35: the part's CRC-32, as sent and as the store checked it (uploads with `checksums`). */
  CRC32?: number;
}

export interface UploadRecord {
  uid: string;
  userId: number;
  organizationId: number;
  projectId: number;
  type: AssetType;
  uploadType: UploadType;
  /** Name of the file on the user's disk; size and lastModified identify it when re-picked. */
  fileName: string;
  size: number;
  lastModified: number;
  contentType: string;
  /** Final name and object key, from check-name (null until asked). */
  name: string | null;
  key: string | null;
  /** Multipart upload id (null for a single PUT, or before CreateMultipartUpload). */
  uploadId: string | null;
  partSize: number | null;
  partCount: number;
  parts: StoredPartRecord[];
  /**
   * Issue 35: the multipart upload was created with CRC32 checksums (FULL_OBJECT): each part is
   * sent with its CRC-32 and the completion with the whole file's. Absent in records of uploads
   * begun before: those go on without (S3 takes no checksum for a part of such an upload).
   */
  checksums?: true;
  /** Issue 35: the whole file's CRC-32 as this device read it, once known; registered with the asset. */
  crc32?: number;
  /** The object is stored whole (PUT or CompleteMultipartUpload succeeded): only registration is left. */
  completed?: boolean;
  status: UploadStatus;
  error: string | null;
  /**
   * 'refused': the server said no (a 4xx: not a file the zone takes, no more memory…) and
   * `error` is its reason. Sending the same bytes again gets the same answer, and the server
   * discarded what was stored, so only dismissing is left, after a reload too. Absent in
   * records written before it (and in every other phase): they are read as they always were.
   */
  phase?: 'refused';
  /** File System Access handle, where the browser offers one (resume after a restart). */
  handle?: FileSystemFileHandleLike;
  /**
   * Issue 35: the folder the file sat in inside a dropped folder ("DCIM/100MSDCF"), cleaned
   * (src/domain/camera-card.ts); registered as the asset's folder. Absent for a file picked alone.
   */
  folder?: string;
  createdAt: number;
  updatedAt: number;
}

/** The parts of FileSystemFileHandle the engine uses (structured-cloneable, so it fits in IndexedDB). */
export interface FileSystemFileHandleLike {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<File>;
  queryPermission?(descriptor?: { mode?: 'read' | 'readwrite' }): Promise<PermissionState>;
  requestPermission?(descriptor?: { mode?: 'read' | 'readwrite' }): Promise<PermissionState>;
}

interface UploadDb extends DBSchema {
  uploads: { key: string; value: UploadRecord; indexes: { byUser: number } };
}

export interface UploadStore {
  list(userId: number): Promise<UploadRecord[]>;
  get(uid: string): Promise<UploadRecord | undefined>;
  put(record: UploadRecord): Promise<void>;
  delete(uid: string): Promise<void>;
  close(): void;
}

export const UPLOAD_DB_NAME = 'cutdesk-uploads';

export async function openUploadStore(name = UPLOAD_DB_NAME): Promise<UploadStore> {
  const db: IDBPDatabase<UploadDb> = await openDB<UploadDb>(name, 1, {
    upgrade(database) {
      const store = database.createObjectStore('uploads', { keyPath: 'uid' });
      store.createIndex('byUser', 'userId');
    },
  });
  return {
    list: (userId) => db.getAllFromIndex('uploads', 'byUser', userId),
    get: (uid) => db.get('uploads', uid),
    async put(record) {
      await db.put('uploads', { ...record, updatedAt: Date.now() });
    },
    async delete(uid) {
      await db.delete('uploads', uid);
    },
    close: () => db.close(),
  };
}
