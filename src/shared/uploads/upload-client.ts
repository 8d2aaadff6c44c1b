import * as Comlink from 'comlink';
import type { EnqueueResult, FileEntry, UploadSnapshot, UploadTarget } from '../../../workers/upload-engine.ts';
import type { UploadWorkerApi } from '../../../workers/upload.worker.ts';
import { appStore, meAtom, onSessionEnd, tokenAtom } from '@/lib/session-state.ts';
import { queryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { requestHandleAccess } from './file-pick.ts';
import { UPLOAD_WORKER_SCOPE, sharedWithRetry } from './worker-endpoint.ts';

/**
 * The page's side of the upload worker: starts it for the signed-in user when IndexedDB holds
 * uploads of theirs (which it resumes — C§4's upload at start) or when a file is given,
 * forwards the token and the network state, mirrors its snapshots for React, and asks before
 * the page is left with uploads running.
 *
 * The worker is a SharedWorker with `extendedLifetime` where the browser has both (named per
 * session, so every tab of one session shares it): it outlives a reload, and the parts in
 * flight when the page goes away finish instead of being cut and sent again; the next page's
 * engine shows them going on and takes the upload over once they are stored
 * (docs/decisions.md, "Less sent twice after a reload"). Elsewhere a dedicated worker, as before.
 */

declare global {
  interface WorkerOptions {
    /** Chromium: the shared worker lives on after its last page, for work already begun. */
    extendedLifetime?: boolean;
  }
}

export type { EnqueueResult, UploadItemView, UploadSnapshot, UploadTarget } from '../../../workers/upload-engine.ts';

export const EMPTY_SNAPSHOT: UploadSnapshot = {
  items: [],
  totals: { files: 0, active: 0, size: 0, loaded: 0, percent: 0, speed: 0, secondsLeft: 0 },
  online: true,
  held: false,
};

let worker: Worker | null = null;
let sharedPort: MessagePort | null = null;
/** Whether this browser keeps a shared worker past its last page (known after the first try). */
let extendedLifetime: boolean | null = null;
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

/**
 * The upload worker of this session: shared by its tabs and kept through a reload where the
 * browser has SharedWorker with `extendedLifetime`. A browser that does not know the option
 * never reads it (WebIDL reads only the members it knows), and a shared worker without it dies
 * with its last page like a dedicated one, cutting the parts in flight: those browsers get the
 * dedicated worker, as before.
 */
function openWorker(key: string): Comlink.Endpoint {
  if (typeof SharedWorker !== 'undefined' && extendedLifetime !== false) {
    let extended = false;
    // Inline, with a literal `type`: Vite reads the options to bundle the worker as a module.
    const openShared = (name: string) =>
      new SharedWorker(new URL('../../../workers/upload.worker.ts', import.meta.url), {
        type: 'module',
        name,
        get extendedLifetime() {
          extended = true;
          return true;
        },
      });
    const first = openShared(`cutdesk-uploads-${key}`);
    extendedLifetime = extended;
    if (extended) {
      return sharedWithRetry({
        first,
        // A name of its own: Chromium joins a new SharedWorker to a live one of the same script
        // and name, and the one that just failed lives on for a moment while it is torn down; a
        // page that joins it then never hears from it, not even an error (seen under load in CI).
        // Every tab's second try shares this name, so they still share one worker; the stored
        // uploads' lock (workers/upload.worker.ts) keeps it and any first-name one from both sending.
        reopen: (retry) => openShared(`cutdesk-uploads-${key}-again${retry > 1 ? `-${retry}` : ''}`),
        leaveOwnScope: leaveUploadWorkerScope,
        onPort: (port) => (sharedPort = port),
      });
    }
    // Never started (no message sent): the browser ends it with this page.
    first.port.close();
  }
  worker = openDedicatedWorker();
  return worker;
}

/**
 * Unregisters the upload worker's own service worker (src/app/pwa.ts registers it again on the
 * next start), and waits (up to 3 s) until the browser no longer lists it: a registration still
 * being removed (a client of it not yet gone) would take the next worker's script request and
 * send it to the network, where this version's script may be gone.
 */
async function leaveUploadWorkerScope(): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false;
  const own = async () =>
    (await navigator.serviceWorker.getRegistrations()).find((registration) => new URL(registration.scope).pathname === UPLOAD_WORKER_SCOPE);
  const registration = await own();
  if (!registration || !(await registration.unregister())) return false;
  for (const deadline = Date.now() + 3_000; (await own()) && Date.now() < deadline;) await new Promise((done) => setTimeout(done, 100));
  return true;
}

function openDedicatedWorker(): Worker {
  // Inline, with a literal `type`, as above.
  return new Worker(new URL('../../../workers/upload.worker.ts', import.meta.url), { type: 'module', name: 'cutdesk-uploads' });
}

/**
 * The page goes away (a reload, a closed tab, the back-forward cache): the shared worker lets
 * the requests in flight finish and starts no new one until a page of this session is back. (A
 * dedicated worker goes, or is frozen, with its page, as it always did.)
 */
function onPageHide(): void {
  if (!remote || !ready || !sharedPort) return;
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

/** Whether IndexedDB holds uploads of `userId` (true when it cannot tell). */
async function hasStoredUploads(userId: number): Promise<boolean> {
  try {
    // Loaded only once signed in: the start-up chunk stays as small as it was.
    const { openUploadStore } = await import('../../../workers/upload-store.ts');
    const store = await openUploadStore();
    try {
      return (await store.list(userId)).length > 0;
    } finally {
      store.close();
    }
  } catch {
    return true;
  }
}

/**
 * Starts the worker at sign-in when IndexedDB holds uploads of this user (C§4: they resume, or
 * wait for their file, at once); otherwise the first file given starts it (`api`). A session
 * with nothing to upload holds no worker — and no shared worker outliving its pages.
 */
async function startIfStored(userId: number, organizationId: number): Promise<void> {
  if (!(await hasStoredUploads(userId))) return;
  const me = appStore.get(meAtom);
  const token = appStore.get(tokenAtom);
  // Still the same session: a sign-out, or someone else's sign-in, may have come meanwhile.
  if (!me || !token || me.id !== userId || (me.organizationId ?? 0) !== organizationId) return;
  await startFor(userId, organizationId, token).catch(() => undefined);
}

/** Deletes every stored upload of `userId` (their resume state and kept file handles). */
async function deleteStoredUploads(userId: number): Promise<void> {
  // Loaded only at a sign-out: the start-up chunk stays as small as it was.
  const { openUploadStore } = await import('../../../workers/upload-store.ts');
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
 * Keeps the upload worker in step with the session: started when someone signs in with
 * uploads left unfinished (they come back) or gives a file, stopped on sign-out. Call once at
 * start-up.
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
    const organizationId = me.organizationId ?? 0;
    // Another session in this tab: the worker of the one before stops first.
    if (sessionKey !== null && sessionKey !== `${me.id}:${organizationId}`) stop();
    if (ready) void remote?.setToken(token);
    else void startIfStored(me.id, organizationId);
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

/**
 * The worker, started for the session if it is not yet. Calls made at once are served once it
 * has started (the worker takes a port's calls in order and waits for its start): a file given
 * is handed over in the same task as its pick, before anything else can happen to it.
 */
function api(): Comlink.Remote<UploadWorkerApi> {
  installUploads();
  if (!ready) {
    const me = appStore.get(meAtom);
    const token = appStore.get(tokenAtom);
    if (!me || !token) throw new Error('Sign in to upload.');
    void startFor(me.id, me.organizationId ?? 0, token).catch(() => undefined);
  }
  return remote!;
}

/**
 * A zone that takes files is on screen: the worker starts now (its module, IndexedDB and the
 * session's token), not when the first file is picked, so that file's first part goes out
 * without waiting for a worker to boot. One worker per session, however many zones show.
 */
export function warmUploads(): void {
  if (!appStore.get(meAtom) || !appStore.get(tokenAtom)) return;
  api();
}

/** Queues files for a zone; matching incomplete uploads resume instead. */
export async function enqueueUploads(entries: FileEntry[], target: UploadTarget): Promise<EnqueueResult> {
  return api().enqueue(entries, target);
}

export async function cancelUpload(uid: string): Promise<void> {
  await api().cancel(uid);
}

export async function retryUpload(uid: string): Promise<void> {
  await api().retry(uid);
}

/** Issue 35: every upload stops where it is until `resumeAllUploads`. */
export async function pauseAllUploads(): Promise<void> {
  await api().pauseAll();
}

export async function resumeAllUploads(): Promise<void> {
  await api().resumeAll();
}

export async function dismissUpload(uid: string): Promise<void> {
  await api().dismiss(uid);
}

/** The user picked the file of an incomplete upload again; false when it is another file. */
export async function resumeWithFile(uid: string, file: File, handle?: FileSystemFileHandle): Promise<boolean> {
  return api().provideFile(uid, file, handle);
}

/**
 * One click to resume after a browser restart: access to the kept file handle is asked
 * again (this needs the click's user activation), then the upload continues.
 */
export async function grantAndResume(uid: string): Promise<boolean> {
  const remoteApi = api();
  const handle = (await remoteApi.handleOf(uid)) as FileSystemFileHandle | null;
  if (!handle) return false;
  const file = await requestHandleAccess(handle);
  if (!file) return false;
  return remoteApi.provideFile(uid, file, handle);
}
