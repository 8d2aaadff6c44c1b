import * as Comlink from 'comlink';
import type { MediaWorkerApi } from '../../../workers/media.worker.ts';

let worker: Comlink.Remote<MediaWorkerApi> | null = null;

/** The one media worker of the page (zips, brief PDF), started on first use. */
export function mediaWorker(): Comlink.Remote<MediaWorkerApi> {
  if (!worker) {
    const instance = new Worker(new URL('../../../workers/media.worker.ts', import.meta.url), { type: 'module', name: 'media' });
    worker = Comlink.wrap<MediaWorkerApi>(instance);
  }
  return worker;
}

let jobsRunning = 0;

/** Counts a running zip download until the returned function is called. */
export function markBusy(): () => void {
  jobsRunning++;
  return () => void jobsRunning--;
}

/** True while a zip download is being written: the update banner does not offer a plain reload then. */
export function isBusy(): boolean {
  return jobsRunning > 0;
}
