import * as Comlink from 'comlink';
import { PARALLEL_PARTS } from '@/domain/uploads.ts';
import { createServerApi } from './server-api.ts';
import { xhrTransport } from './transport.ts';
import { UPLOAD_WORKER_LISTENING } from './upload/types.ts';
import { UploadEngine, type EnqueueResult, type FileEntry, type UploadSnapshot, type UploadTarget } from './upload-engine.ts';
import { openUploadStore, type FileSystemFileHandleLike, type UploadStore } from './upload-store.ts';

/**
 * The upload worker (ARCHITECTURE §1): owns every upload of the signed-in user, so transfers
 * keep going while the page renders, and their state lives in IndexedDB for resuming.
 * The page talks to it through comlink (src/shared/uploads/upload-client.ts).
 *
 * Where the browser has them it runs as a SharedWorker with `extendedLifetime` (one per
 * session, named by the page), which outlives a reload of the page: when the last page goes
 * away, the engine drains — the part requests in flight finish and are recorded, none starts —
 * and the next page's engine waits for them, so a reload at 50 % sends no part twice (a cut
 * UploadPart is lost whole on S3). Elsewhere it is a dedicated worker, which dies with its page.
 */

export interface WorkerSession {
  /** The signed-in user and organization: uploads are stored per user. */
  userId: number;
  organizationId: number;
  token: string;
}

type Listener = (snapshot: UploadSnapshot) => void;

let engine: UploadEngine | null = null;
let store: UploadStore | null = null;
let token: string | null = null;
let current: WorkerSession | null = null;
let releaseLock: (() => void) | null = null;
/** Pages connected to this worker (one for a dedicated worker), each with its snapshot callback. */
const listeners = new Map<number, Listener>();
/** The engine the last page left (draining, or drained): the next page's engine takes over from it. */
let left: { engine: UploadEngine; session: WorkerSession } | null = null;
/** Engines left by pages, still finishing their requests. */
const draining = new Set<UploadEngine>();

function broadcast(snapshot: UploadSnapshot): void {
  for (const listener of listeners.values()) {
    // A page gone without saying so (a crash) leaves a callback whose answer never comes: no harm.
    void Promise.resolve(listener(snapshot)).catch(() => undefined);
  }
}

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

function release(): void {
  releaseLock?.();
  releaseLock = null;
}

/**
 * The engine the last page left finishes its requests (they record their parts in IndexedDB):
 * meanwhile it holds a lock of its own, which a sign-out's clearing of the queue waits for
 * (upload-client.ts, forgetUploadsOf), so no part it records brings a cleared upload back.
 */
function drainLeft(leaving: UploadEngine, userId: number): void {
  draining.add(leaving);
  const drained = leaving.drain().finally(() => draining.delete(leaving));
  const locks = (navigator as WorkerNavigator & { locks?: LockManager }).locks;
  void locks?.request(`cutdesk-uploads-${userId}-draining`, () => drained).catch(() => undefined);
}

/** Starts (or restarts, for another user) the engine for the page `client`; resumes what IndexedDB holds. */
async function startEngine(client: number, session: WorkerSession, onChange: Listener): Promise<UploadSnapshot> {
  listeners.set(client, onChange);
  token = session.token;
  if (engine && current && current.userId === session.userId && current.organizationId === session.organizationId) return engine.snapshot();
  engine?.destroy();
  release();
  store ??= await openUploadStore();
  current = session;
  // The engine a reloaded page left, if it was this session's: its uploads are taken over.
  const previous = left && left.session.userId === session.userId && left.session.organizationId === session.organizationId ? left.engine : undefined;
  left = null;
  const created: UploadEngine = new UploadEngine({
    api: createServerApi({ baseUrl: `${self.location.origin}/api/v1`, getToken: () => token }),
    transport: xhrTransport(),
    store,
    userId: session.userId,
    organizationId: session.organizationId,
    online: navigator.onLine,
    // Only the engine in charge speaks to the pages: one draining after a reload stays quiet.
    onChange: (snapshot) => engine === created && broadcast(snapshot),
    ...(previous && { previous }),
    // Browsers open six HTTP/1.1 connections per origin: with the store on the app's own origin
    // (the embedded default), five carry parts and one stays free for the app's API calls.
    partsFor: (endpoint) => (new URL(endpoint).origin === self.location.origin ? PARALLEL_PARTS - 1 : PARALLEL_PARTS),
  });
  engine = created;
  resumeWhenFirst(created, session.userId);
  return created.snapshot();
}

/** The latest `start` (a page sends its calls right after it: they wait for it). */
let starting: Promise<unknown> = Promise.resolve();

const required = async () => {
  await starting;
  if (!engine) throw new Error('The upload worker has not been started.');
  return engine;
};

/** The API one page gets (comlink); `client` tells the pages of a shared worker apart. */
function apiFor(client: number) {
  return {
    /** Starts (or restarts, for another user) the engine; resumes what IndexedDB holds. */
    start(session: WorkerSession, onChange: Listener): Promise<UploadSnapshot> {
      const started = startEngine(client, session, onChange);
      starting = started.catch(() => undefined);
      return started;
    },
    /**
     * The page is going away (`pagehide`: a reload, a closed tab). The last page's engine drains:
     * what is in flight finishes and is recorded, nothing new starts; the next page starts a new
     * engine from IndexedDB that waits for those requests instead of sending their parts again.
     */
    detach(): void {
      // Once per page: its port closing after a `pagehide` that said so already changes nothing.
      if (!listeners.delete(client) || listeners.size > 0 || !engine || !current) return;
      left = { engine, session: current };
      engine = null;
      current = null;
      drainLeft(left.engine, left.session.userId);
      release();
    },
    setToken(next: string | null): void {
      token = next;
    },
    enqueue: async (entries: FileEntry[], target: UploadTarget): Promise<EnqueueResult> => (await required()).enqueue(entries, target),
    provideFile: async (uid: string, file: File, handle?: FileSystemFileHandleLike): Promise<boolean> => (await required()).provideFile(uid, file, handle),
    retry: async (uid: string): Promise<void> => (await required()).retry(uid),
    cancel: async (uid: string): Promise<void> => (await required()).cancel(uid),
    dismiss: async (uid: string): Promise<void> => (await required()).dismiss(uid),
    setOnline: (online: boolean): void => engine?.setOnline(online),
    pauseAll: async (): Promise<void> => (await required()).pauseAll(),
    resumeAll: async (): Promise<void> => (await required()).resumeAll(),
    handleOf: async (uid: string): Promise<FileSystemFileHandleLike | null> => {
      await starting;
      return engine?.handleOf(uid) ?? null;
    },
    snapshot: async (): Promise<UploadSnapshot | null> => {
      await starting;
      return engine?.snapshot() ?? null;
    },
    /**
     * Signing out (or this page switching to another session): transfers stop at once; their
     * state stays in IndexedDB for the next sign-in. Another page of this session still using the
     * shared worker keeps it (a sign-out reaches every tab, and the last one stops it).
     */
    stop(): void {
      listeners.delete(client);
      if (listeners.size > 0) return;
      engine?.destroy();
      // Parts the pages before a reload left in flight stop too: a sign-out stops every upload.
      for (const leaving of draining) leaving.destroy();
      engine = null;
      current = null;
      left = null;
      token = null;
      release();
    },
  };
}

export type UploadWorkerApi = ReturnType<typeof apiFor>;

// The worker sees the network state too; the page forwards it as well (belt and braces).
self.addEventListener('online', () => engine?.setOnline(true));
self.addEventListener('offline', () => engine?.setOnline(false));

if ('onconnect' in self) {
  let clients = 0;
  self.addEventListener('connect', (event) => {
    const port = (event as MessageEvent).ports[0];
    if (!port) return;
    const api = apiFor((clients += 1));
    Comlink.expose(api, port);
    // The page holds its calls until this arrives (a worker that fails to load never sends it:
    // the page then starts it again through the app's service worker, worker-endpoint.ts).
    port.postMessage(UPLOAD_WORKER_LISTENING);
    // A page gone without its `pagehide` (a crash, a killed tab): its port closes, where the browser says so.
    port.addEventListener('close', () => api.detach());
  });
} else {
  Comlink.expose(apiFor(0));
}
