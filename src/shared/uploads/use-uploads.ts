import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { installUploads, subscribeUploads, uploadsSnapshot, type UploadItemView, type UploadSnapshot } from './upload-client.ts';

/** The upload worker's latest snapshot (every file, its progress, the totals); starts the worker if needed. */
export function useUploads(): UploadSnapshot {
  useEffect(() => installUploads(), []);
  return useSyncExternalStore(subscribeUploads, uploadsSnapshot);
}

/**
 * A part of the upload worker's snapshot: the component renders again only when `equal` says
 * the part changed. Snapshots come twice a second while an upload runs (issue 14: the project
 * page rendered its three sections, their files and zones, for each of them); what shows
 * progress subscribes to it, what only needs the list of uploads does not.
 * `select` and `equal` should be stable (module functions or useCallback). The value kept is
 * the first one `equal` matched: with `sameUploadStates`, its progress fields are those of the
 * snapshot where the state last changed — read progress through `useUploadItem` or `useUploads`.
 */
export function useUploadsSelection<T>(select: (snapshot: UploadSnapshot) => T, equal: (a: T, b: T) => boolean): T {
  useEffect(() => installUploads(), []);
  const read = useMemo(() => {
    let source: UploadSnapshot | null = null;
    let value: T;
    return () => {
      const next = uploadsSnapshot();
      if (next === source) return value;
      const selected = select(next);
      if (source === null || !equal(value, selected)) value = selected;
      source = next;
      return value;
    };
  }, [select, equal]);
  return useSyncExternalStore(subscribeUploads, read);
}

/** What moves while an upload runs; everything else of an item is its state. */
const PROGRESS_FIELDS = new Set<keyof UploadItemView>(['loaded', 'percent', 'speed', 'secondsLeft']);

function sameFields(a: UploadItemView, b: UploadItemView, skipProgress: boolean): boolean {
  for (const key of Object.keys(a) as (keyof UploadItemView)[]) {
    if (skipProgress && PROGRESS_FIELDS.has(key)) continue;
    if (!Object.is(a[key], b[key])) return false;
  }
  return Object.keys(a).length === Object.keys(b).length;
}

/** The same uploads in the same states, whatever their progress. */
export function sameUploadStates(a: readonly UploadItemView[], b: readonly UploadItemView[]): boolean {
  return a.length === b.length && a.every((item, i) => sameFields(item, b[i]!, true));
}

const sameItem = (a: UploadItemView | null, b: UploadItemView | null) => a === b || (a !== null && b !== null && sameFields(a, b, false));

/** One upload as the latest snapshot has it, progress included (null once it left the list). */
export function useUploadItem(uid: string): UploadItemView | null {
  const select = useCallback((snapshot: UploadSnapshot) => snapshot.items.find((item) => item.uid === uid) ?? null, [uid]);
  return useUploadsSelection(select, sameItem);
}
