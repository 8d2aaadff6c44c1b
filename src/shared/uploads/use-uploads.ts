import { useEffect, useSyncExternalStore } from 'react';
import { installUploads, subscribeUploads, uploadsSnapshot, type UploadSnapshot } from './upload-client.ts';

/** The upload worker's latest snapshot (every file, its progress, the totals); starts the worker if needed. */
export function useUploads(): UploadSnapshot {
  useEffect(() => installUploads(), []);
  return useSyncExternalStore(subscribeUploads, uploadsSnapshot);
}
