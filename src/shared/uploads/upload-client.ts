import * as Comlink from 'comlink';
import type { EnqueueResult, FileEntry, UploadSnapshot, UploadTarget } from '../../../workers/upload-engine.shared.ts';
import type { UploadWorkerApi } from '../../../workers/upload.worker.ts';
import { appStore, meAtom, onSessionEnd, tokenAtom } from '@/lib/session-state.ts';
import { queryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { requestHandleAccess } from './file-pick.ts';

/**
 * The page's side of the upload worker: starts it for the signed-in user (which resumes what
 * IndexedDB holds — C§4's upload at start), forwards the token and the network state,
 * mirrors its snapshots for React, and asks before the page is left with uploads running.
 *
 * The worker is a SharedWorker with `extendedLifetime` where the browser has SharedWorker
 * (named per session, so every tab of one session shares it): it outlives a reload, and the
 * parts in flight when the page goes away finish instead of being cut and sent again
 * (docs/decisions.md, "Less sent twice after a reload"). Elsewhere a dedicated worker.
 */

declare global {
  interface WorkerOptions {
    /** Chromium: the shared worker lives on after its last page, for work already begun. */
    extendedLifetime?: boolean;
  }
}

export type { EnqueueResult, UploadItemView, UploadSnapshot, UploadTarget } from '../../../workers/upload-engine.shared.ts';

export const EMPTY_SNAPSHOT: UploadSnapshot = { items: [], totals: { files: 0, active: 0, size: 0, loaded: 0, percent: 0, speed: 0, secondsLeft: 0 }, online: true };

let worker: Worker | null = null;
let sharedPort: MessagePort | null = null;
/** Brings the worker in step with the session (set by installUploads). */
let syncSession: (() => void) | null = null;
let remote: Comlink.Remote<UploadWorkerApi> | null = null;
let ready: Promise<void> | null = null;
let sessionKey: string | null = null;
let snapshot: UploadSnapshot = EMPTY_SNAPSHOT;
const listeners = new Set<() => void>();
let doneSeen = new Set<string>();

function publish(next: UploadSnapshot): void {
  snapshot = next;
  const done = next.items.filter((item) => item.status === 'done').map((item) => item.uid);
  // A registered file changes the organization's used storage shown in the top bar.
  if (done.some((uid) => !doneSeen.has(uid))) {
    const organizationId = appStore.get(meAtom)?.organizationId;
    if (organizationId) void queryClient.invalidateQueries({ queryKey: queryKeys.organization(organizationId) });
  }
  doneSeen = new Set(done);
  for (const listener of listeners) listener();
}

export function subscribeUploads(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function uploadsSnapshot(): UploadSnapshot {
  return snapshot;
}

/** True while an upload is running or queued: the update banner does not offer a plain reload then. */
export function isBusy(): boolean {
  return snapshot.totals.active > 0;
}

function onBeforeUnload(event: BeforeUnloadEvent): void {
  if (snapshot.totals.active === 0) return;
  // C§5: leaving with uploads running asks first (browsers show their own wording).
  event.preventDefault();
  event.returnValue = '';
}

const forwardOnline = () => void remote?.setOnline(true);
const forwardOffline = () => void remote?.setOnline(false);

function stop(): void {
  if (remote) void remote.stop();
  worker?.terminate();
  sharedPort?.close();
  worker = null;
  sharedPort = null;
  remote = null;
  ready = null;
  sessionKey = null;
  publish(EMPTY_SNAPSHOT);
}

/** The upload worker of this session: shared by its tabs and kept through a reload where possible. */
function openWorker(key: string): Comlink.Endpoint {
  if (typeof SharedWorker !== 'undefined') {
    const shared = new SharedWorker(new URL('../../../workers/upload.worker.ts', import.meta.url), { type: 'module', name: `cutdesk-uploads-${key}`, extendedLifetime: true });
    sharedPort = shared.port;
    return shared.port;
  }
  worker = new Worker(new URL('../../../workers/upload.worker.ts', import.meta.url), { type: 'module', name: 'cutdesk-uploads' });
  return worker;
}

/**
 * The page goes away (a reload, a closed tab, the back-forward cache): the worker lets the
 * requests in flight finish and starts no new one until a page of this session is back.
 */
function onPageHide(): void {
  if (!remote || !ready) return;
  void remote.detach();
  ready = null;
}

/** Back from the back-forward cache: the page takes its place in the worker again. */
function onPageShow(event: PageTransitionEvent): void {
  if (event.persisted) syncSession?.();
}

function startFor(userId: number, organizationId: number, token: string): Promise<void> {
  const key = `${userId}:${organizationId}`;
  if (ready && sessionKey === key) return ready;
  if (sessionKey !== key) stop();
  sessionKey = key;
  remote ??= Comlink.wrap<UploadWorkerApi>(openWorker(key));
  const api = remote;
  ready = api
    .start({ userId, organizationId, token }, Comlink.proxy(publish))
    .then(publish)
    .catch((error: unknown) => {
      console.error('the upload worker failed to start', error);
      throw error;
    });
  return ready;
}

/** Deletes every stored upload of `userId` (their resume state and kept file handles). */
async function deleteStoredUploads(userId: number): Promise<void> {
  // Loaded only at a sign-out: the start-up chunk stays as small as it was.
  const { openUploadStore } = await import('../../../workers/upload-store.shared.ts');
  const store = await openUploadStore();
  try {
    await Promise.all((await store.list(userId)).map((record) => store.delete(record.uid)));
  } finally {
    store.close();
  }
}

/**
 * A session ended (sign-out here or in another tab, or a refused token): the user's upload
 * queue goes with it, so the next person on this browser neither resumes nor sees their
 * uploads. The worker of this tab is already stopped (the session atoms emptied first). A
 * worker of another tab may still write a part's record: the Web Lock the uploading worker
 * holds (upload.worker.ts) is freed when that tab stops it too, and so is the lock an engine
 * left by a reloaded page holds while its last parts finish; the queue is emptied again once
 * both are free (unless the same user signed in again). A reload ends nothing, so the same
 * user's uploads still resume after one.
 */
function forgetUploadsOf(userId: number): void {
  const forget = () => deleteStoredUploads(userId).catch((error: unknown) => console.warn('the upload queue could not be cleared', error));
  void forget();
  // Not when the same user signed in again meanwhile: what is queued now is theirs to keep.
  const again = () => (appStore.get(meAtom)?.id === userId ? undefined : forget());
  const locks = navigator.locks;
  void locks?.request(`cutdesk-uploads-${userId}`, () => locks.request(`cutdesk-uploads-${userId}-draining`, again)).catch(() => undefined);
}

let installed = false;

/**
 * Keeps the upload worker in step with the session: started when someone signs in (uploads
 * left unfinished come back), stopped on sign-out. Call once at start-up.
 */
export function installUploads(): void {
  if (installed || typeof Worker === 'undefined') return;
  installed = true;
  const sync = () => {
    const me = appStore.get(meAtom);
    const token = appStore.get(tokenAtom);
    if (!me || !token) {
      if (remote) stop();
      return;
    }
    void startFor(me.id, me.organizationId ?? 0, token).catch(() => undefined);
    void remote?.setToken(token);
  };
  syncSession = sync;
  appStore.sub(meAtom, sync);
  appStore.sub(tokenAtom, sync);
  onSessionEnd(forgetUploadsOf);
  window.addEventListener('beforeunload', onBeforeUnload);
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  window.addEventListener('online', forwardOnline);
  window.addEventListener('offline', forwardOffline);
  sync();
}

async function api(): Promise<Comlink.Remote<UploadWorkerApi>> {
  installUploads();
  if (!ready) {
    const me = appStore.get(meAtom);
    const token = appStore.get(tokenAtom);
    if (!me || !token) throw new Error('Sign in to upload.');
    await startFor(me.id, me.organizationId ?? 0, token);
  }
  await ready;
  return remote!;
}

/** Queues files for a zone; matching incomplete uploads resume instead. */
export async function enqueueUploads(entries: FileEntry[], target: UploadTarget): Promise<EnqueueResult> {
  return (await api()).enqueue(entries, target);
}

export async function cancelUpload(uid: string): Promise<void> {
  await (await api()).cancel(uid);
}

export async function retryUpload(uid: string): Promise<void> {
  await (await api()).retry(uid);
}

export async function dismissUpload(uid: string): Promise<void> {
  await (await api()).dismiss(uid);
}

/** The user picked the file of an incomplete upload again; false when it is another file. */
export async function resumeWithFile(uid: string, file: File, handle?: FileSystemFileHandle): Promise<boolean> {
  return (await api()).provideFile(uid, file, handle);
}

/**
 * One click to resume after a browser restart: access to the kept file handle is asked
 * again (this needs the click's user activation), then the upload continues.
 */
export async function grantAndResume(uid: string): Promise<boolean> {
  const remoteApi = await api();
  const handle = (await remoteApi.handleOf(uid)) as FileSystemFileHandle | null;
  if (!handle) return false;
  const file = await requestHandleAccess(handle);
  if (!file) return false;
  return remoteApi.provideFile(uid, file, handle);
}
