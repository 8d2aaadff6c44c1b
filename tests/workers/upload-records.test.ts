import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { UploadRecords } from '../../workers/upload/upload-records.ts';
import { openUploadStore, type UploadRecord, type UploadStore } from '../../workers/upload-store.ts';

const record = (parts: number): UploadRecord => ({
  uid: 'clip',
  userId: 7,
  organizationId: 3,
  projectId: 1,
  type: 'INTERVIEW_CLIP',
  uploadType: 'asset',
  fileName: 'talk.mov',
  size: 200 * 2 ** 20,
  lastModified: 1,
  contentType: 'video/quicktime',
  name: 'talk.mov',
  key: 'organizations/3/projects/1/interviews/talk.mov',
  uploadId: 'upload-1',
  partSize: 20 * 2 ** 20,
  partCount: 10,
  parts: Array.from({ length: parts }, (_, i) => ({ PartNumber: i + 1, ETag: `"etag-${i + 1}"` })),
  status: 'uploading',
  error: null,
  createdAt: 1,
  updatedAt: 1,
});

/** The real IndexedDB store (fake-indexeddb), each write counted; a write waits until `release` lets one more through. */
async function heldStore(name: string): Promise<{ store: UploadStore; written: number[]; release: () => void; failNext: () => void }> {
  const real = await openUploadStore(name);
  const written: number[] = [];
  const waiting: (() => void)[] = [];
  let allowed = 0;
  let fail = false;
  return {
    written,
    release: () => {
      const next = waiting.shift();
      if (next) next();
      else allowed += 1;
    },
    failNext: () => (fail = true),
    store: {
      list: (userId) => real.list(userId),
      get: (uid) => real.get(uid),
      delete: (uid) => real.delete(uid),
      close: () => real.close(),
      put: async (next) => {
        if (allowed > 0) allowed -= 1;
        else await new Promise<void>((resolve) => waiting.push(resolve));
        if (fail) {
          fail = false;
          throw new Error('the disk is full');
        }
        written.push(next.parts.length);
        await real.put(next);
      },
    },
  };
}

/** Lets every write through, one at a time, until the records are flushed. */
async function drain(records: UploadRecords, release: () => void): Promise<void> {
  let flushed = false;
  const flushing = records.flush().then(() => (flushed = true));
  while (!flushed) {
    release();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await flushing;
}

/** Lets the writer's promises and fake-indexeddb's tasks run for `count` turns of the event loop. */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Lets them run until `done` holds; fails if it never does. */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 500 && !done(); turn += 1) await turns(1);
  if (!done()) throw new Error('the records never got there');
}

/** A pause between background writes that the test ends by hand (or a flush, forget or close cuts short). */
function handPause(): { pause: (signal: AbortSignal) => Promise<void>; pauses: (() => void)[] } {
  const pauses: (() => void)[] = [];
  return {
    pauses,
    pause: (signal) =>
      new Promise<void>((resolve) => {
        pauses.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
  };
}

/** Records on a store that takes every write, with a hand-ended pause: the first part written, the writer paused after it. */
async function pausedAfterFirstWrite(name: string) {
  const { store, written, release } = await heldStore(name);
  for (let i = 0; i < 10; i += 1) release();
  const { pause, pauses } = handPause();
  const records = new UploadRecords(store, pause);
  records.saveSoon(record(1));
  await until(() => pauses.length === 1);
  expect(written).toEqual([1]);
  return { store, written, records, pauses };
}

describe('the upload records written in the background', () => {
  it('writes parts finishing together once, after the write under way, and the last record given always lands', async () => {
    const { store, written, release } = await heldStore('records-coalesced');
    const records = new UploadRecords(store);
    records.saveSoon(record(1));
    // Five more parts finish while the first write is under way (six in flight finish together).
    for (let parts = 2; parts <= 6; parts += 1) records.saveSoon(record(parts));
    await drain(records, release);
    expect(written).toEqual([1, 6]);
    expect((await store.get('clip'))?.parts).toHaveLength(6);
  });

  it('pauses after each write: parts finishing before the pause ends share one write, and flush cuts the pause short', async () => {
    const { store, written, records, pauses } = await pausedAfterFirstWrite('records-paused');
    // Two more parts land while the writer pauses: nothing is written until the pause ends.
    records.saveSoon(record(2));
    records.saveSoon(record(3));
    await turns(20);
    expect(written).toEqual([1]);
    pauses[0]!();
    await until(() => pauses.length === 2);
    expect(written).toEqual([1, 3]);
    // The last part: flush writes it now, without waiting for the pause.
    records.saveSoon(record(4));
    await records.flush();
    expect(written).toEqual([1, 3, 4]);
    expect((await store.get('clip'))?.parts).toHaveLength(4);
  });

  it('never lands a record waiting in the background after a direct save of the same upload (an outcome, a completion)', async () => {
    const { store, written, records, pauses } = await pausedAfterFirstWrite('records-direct');
    records.saveSoon(record(2));
    // The upload stops with three parts stored: its outcome is written at once.
    await records.save({ ...record(3), status: 'incomplete' });
    pauses[0]!();
    await records.flush();
    expect(written).toEqual([1, 3]);
    expect(await store.get('clip')).toMatchObject({ status: 'incomplete', parts: { length: 3 } });
  });

  it('cuts the pause short for a cancel: the waiting record is dropped and the record deleted at once', async () => {
    const { store, written, records } = await pausedAfterFirstWrite('records-cancelled-in-pause');
    records.saveSoon(record(2));
    // No pause is ended by hand: forget must not wait for it.
    await records.forget('clip');
    expect(written).toEqual([1]);
    expect(await store.get('clip')).toBeUndefined();
  });

  it('keeps each record as it was given: a part recorded later does not change a write already queued', async () => {
    const { store, written, release } = await heldStore('records-copied');
    const records = new UploadRecords(store);
    const live = record(1);
    records.saveSoon(live);
    live.parts.push({ PartNumber: 2, ETag: '"etag-2"' });
    await drain(records, release);
    expect(written).toEqual([1]);
  });

  it('goes on after a failed write: the next record is written, and flush does not hang', async () => {
    const { store, written, release, failNext } = await heldStore('records-failed');
    const records = new UploadRecords(store);
    failNext();
    records.saveSoon(record(1));
    records.saveSoon(record(2));
    await drain(records, release);
    expect(written).toEqual([2]);
    expect((await store.get('clip'))?.parts).toHaveLength(2);
  });

  it('keeps a forgotten upload forgotten: a record waiting to be written when it is cancelled is not written after', async () => {
    const { store, written, release } = await heldStore('records-forgotten');
    const records = new UploadRecords(store);
    records.saveSoon(record(1));
    records.saveSoon(record(2));
    const forgotten = records.forget('clip');
    await drain(records, release);
    await forgotten;
    expect(written).toEqual([1]);
    expect(await store.get('clip')).toBeUndefined();
  });

  it('keeps it forgotten across engines: the engine a reload left does not write back an upload the new one cancelled', async () => {
    const { store, written, release } = await heldStore('records-two-engines');
    // Writes reach IndexedDB as they are made, as in the browser.
    for (let i = 0; i < 10; i += 1) release();
    const left = new UploadRecords(store);
    const current = new UploadRecords(store);
    left.saveSoon(record(5));
    left.saveSoon(record(6));
    await current.forget('clip');
    left.saveSoon(record(7));
    await left.flush();
    expect(written).toEqual([5]);
    expect(await store.get('clip')).toBeUndefined();
    // Another upload on the same store is written as ever.
    await current.save({ ...record(1), uid: 'other' });
    expect((await store.get('other'))?.parts).toHaveLength(1);
  });

  it('writes nothing once closed (a closed tab, a sign-out)', async () => {
    const { store, written, release } = await heldStore('records-closed');
    const records = new UploadRecords(store);
    records.close();
    records.saveSoon(record(3));
    await drain(records, release);
    expect(written).toEqual([]);
    expect(await store.get('clip')).toBeUndefined();
  });
});
