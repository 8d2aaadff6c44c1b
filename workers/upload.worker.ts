import * as Comlink from 'comlink';
import { PARALLEL_PARTS } from '@/domain/uploads.ts';
import { createServerApi } from './server-api.shared.ts';
import { xhrTransport } from './transport.shared.ts';
import { UploadEngine, type EnqueueResult, type FileEntry, type UploadSnapshot, type UploadTarget } from './upload-engine.shared.ts';
import { openUploadStore, type FileSystemFileHandleLike, type UploadStore } from './upload-store.shared.ts';

/**
 * The upload worker (ARCHITECTURE §1): owns every upload of the signed-in user, so transfers
 * keep going while the page renders, and their state lives in IndexedDB for resuming.
 * The page talks to it through comlink (src/lib/uploads).
 */

export interface WorkerSession {
  /** The signed-in user and organization: uploads are stored per user. */
  userId: number;
  organizationId: number;
  token: string;
}

let engine: UploadEngine | null = null;
let store: UploadStore | null = null;
let token: string | null = null;
let current: WorkerSession | null = null;
let releaseLock: (() => void) | null = null;

/**
 * Only one tab resumes the uploads IndexedDB holds (two would send the same parts): the tab
 * holding this lock does; another one uploads what is added in it and takes over the stored
 * uploads when the first tab closes.
 */
function resumeWhenFirst(forEngine: UploadEngine, userId: number): void {
  const locks = (navigator as WorkerNavigator & { locks?: LockManager }).locks;
  if (!locks) {
    void forEngine.start();
    return;
  }
  void locks.request(`cutdesk-uploads-${userId}`, async () => {
    if (engine !== forEngine) return;
    await forEngine.start();
    await new Promise<void>((resolve) => (releaseLock = resolve));
  });
}

const required = () => {
  if (!engine) throw new Error('The upload worker has not been started.');
  return engine;
};

const workerApi = {
  /** Starts (or restarts, for another user) the engine; resumes what IndexedDB holds. */
  async start(session: WorkerSession, onChange: (snapshot: UploadSnapshot) => void): Promise<UploadSnapshot> {
    token = session.token;
    if (engine && current && current.userId === session.userId && current.organizationId === session.organizationId) return engine.snapshot();
    engine?.destroy();
    releaseLock?.();
    releaseLock = null;
    store ??= await openUploadStore();
    current = session;
    engine = new UploadEngine({
      api: createServerApi({ baseUrl: `${self.location.origin}/api/v1`, getToken: () => token }),
      transport: xhrTransport(),
      store,
      userId: session.userId,
      organizationId: session.organizationId,
      online: navigator.onLine,
      onChange,
      // Browsers open six HTTP/1.1 connections per origin: with the store on the app's own origin
      // (the embedded default), five carry parts and one stays free for the app's API calls.
      partsFor: (endpoint) => (new URL(endpoint).origin === self.location.origin ? PARALLEL_PARTS - 1 : PARALLEL_PARTS),
    });
    resumeWhenFirst(engine, session.userId);
    return engine.snapshot();
  },
  setToken(next: string | null): void {
    token = next;
  },
  enqueue: (entries: FileEntry[], target: UploadTarget): Promise<EnqueueResult> => required().enqueue(entries, target),
  provideFile: (uid: string, file: File, handle?: FileSystemFileHandleLike): Promise<boolean> => required().provideFile(uid, file, handle),
  retry: (uid: string): Promise<void> => required().retry(uid),
  cancel: (uid: string): Promise<void> => required().cancel(uid),
  dismiss: (uid: string): Promise<void> => required().dismiss(uid),
  setOnline: (online: boolean): void => engine?.setOnline(online),
  handleOf: (uid: string): FileSystemFileHandleLike | null => engine?.handleOf(uid) ?? null,
  snapshot: (): UploadSnapshot | null => engine?.snapshot() ?? null,
  /** Signing out: transfers stop; their state stays in IndexedDB for the next sign-in. */
  stop(): void {
    engine?.destroy();
    engine = null;
    current = null;
    token = null;
    releaseLock?.();
    releaseLock = null;
  },
};

export type UploadWorkerApi = typeof workerApi;

// The worker sees the network state too; the page forwards it as well (belt and braces).
self.addEventListener('online', () => engine?.setOnline(true));
self.addEventListener('offline', () => engine?.setOnline(false));

Comlink.expose(workerApi);
