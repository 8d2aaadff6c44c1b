import { describe, expect, it } from 'vitest';
import type { UploadCredentials } from '../../src/domain/contract/uploads.ts';
import type { ServerApi } from '../../workers/server-api.ts';
import type { Transport, TransportRequest } from '../../workers/transport.ts';
import type { UploadRecord } from '../../workers/upload-store.ts';
import { CredentialCache } from '../../workers/upload/credential-cache.ts';
import type { Phase } from '../../workers/upload/phase.ts';
import { FileProgress, SpeedMeter, storedBytesOf, totalsOf } from '../../workers/upload/progress-meter.ts';
import { Scheduler } from '../../workers/upload/scheduler.ts';
import type { UploadItemView } from '../../workers/upload/types.ts';

/** The upload engine's parts on their own (the engine as a whole: upload-engine.test.ts). */

const MINUTE = 60_000;

function credentialsApi(now: () => number, lifetimeMs: number) {
  const calls: number[] = [];
  const api = {
    credentials: async (projectId: number): Promise<UploadCredentials> => {
      calls.push(projectId);
      const accessKeyId = `key-${calls.length}`;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return {
        accessKeyId,
        secretAccessKey: 'secret',
        sessionToken: 'token',
        expiration: new Date(now() + lifetimeMs).toISOString(),
        serverTime: new Date(now()).toISOString(),
        endpoint: 'http://store.test',
        bucket: 'media',
        region: 'us-east-1',
        forcePathStyle: true,
        prefix: `projects/${projectId}/`,
      };
    },
  } as unknown as ServerApi;
  return { api, calls };
}

function recordingTransport() {
  const requests: TransportRequest[] = [];
  const transport: Transport = async (request) => {
    requests.push(request);
    return { status: 204, header: () => null, text: '' };
  };
  return { transport, requests };
}

const keyIdOf = (request: TransportRequest) => /Credential=([^/]+)\//.exec(request.headers.authorization ?? request.headers.Authorization ?? '')?.[1];

describe('credential cache', () => {
  it('fetches credentials once for concurrent requests, per project, and reuses them until 5 minutes before expiry', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => clock;
    const { api, calls } = credentialsApi(now, 15 * MINUTE);
    const { transport, requests } = recordingTransport();
    const endpoints: string[] = [];
    const cache = new CredentialCache({ api, transport, now, onEndpoint: (endpoint) => endpoints.push(endpoint) });
    const client = cache.clientFor(1, 'asset');
    expect(cache.clientFor(1, 'asset')).toBe(client);
    await Promise.all([
      client.abortMultipartUpload('a', 'u1'),
      client.abortMultipartUpload('b', 'u2'),
      cache.clientFor(2, 'asset').abortMultipartUpload('c', 'u3'),
    ]);
    expect(calls).toEqual([1, 2]);
    expect(endpoints).toEqual(['http://store.test', 'http://store.test']);
    clock += 9 * MINUTE;
    await client.abortMultipartUpload('a', 'u1');
    expect(calls).toEqual([1, 2]);
    // 6 minutes left: renewed before they run out.
    clock += 1 * MINUTE;
    await client.abortMultipartUpload('a', 'u1');
    expect(calls).toEqual([1, 2, 1]);
    expect(requests.map(keyIdOf)).toEqual(['key-1', 'key-1', 'key-2', 'key-1', 'key-3']);
  });

  it('fetches new credentials after the store refused them', async () => {
    const now = () => Date.parse('2026-01-01T00:00:00Z');
    const { api, calls } = credentialsApi(now, 60 * MINUTE);
    const { transport } = recordingTransport();
    const cache = new CredentialCache({ api, transport, now });
    const client = cache.clientFor(7, 'deliverable');
    await client.abortMultipartUpload('a', 'u');
    cache.forget(7, 'asset');
    await client.abortMultipartUpload('a', 'u');
    expect(calls).toEqual([7]);
    cache.forget(7, 'deliverable');
    await client.abortMultipartUpload('a', 'u');
    expect(calls).toEqual([7, 7]);
  });
});

describe('scheduler', () => {
  const upload = (phase: Phase, createdAt: number, hasFile = true) => ({ phase, createdAt, hasFile });

  it('starts queued files with their bytes at hand, oldest first, up to the files allowed at once', () => {
    const scheduler = new Scheduler({ parallel: 6, maxActiveFiles: 3, autoRetryMs: 0 });
    const uploads = [
      upload('queued', 5),
      upload('uploading', 1),
      upload('queued', 2),
      upload('queued', 1, false),
      upload('failed', 0),
      upload('queued', 3),
      upload('paused', 0),
    ];
    expect(scheduler.toStart(uploads).map((u) => u.createdAt)).toEqual([2, 3]);
    expect(scheduler.toStart([upload('uploading', 1), upload('uploading', 2), upload('uploading', 3), upload('queued', 4)])).toEqual([]);
    scheduler.stop();
    expect(scheduler.toStart([upload('queued', 1)])).toEqual([]);
  });

  it('retries failed uploads once after the delay, never after being stopped, and not at all with 0', async () => {
    const scheduler = new Scheduler({ parallel: 6, maxActiveFiles: 3, autoRetryMs: 10 });
    let retries = 0;
    scheduler.retryLater(() => (retries += 1));
    scheduler.retryLater(() => (retries += 1));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(retries).toBe(1);
    scheduler.retryLater(() => (retries += 1));
    scheduler.stop();
    scheduler.retryLater(() => (retries += 1));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(retries).toBe(1);
    const off = new Scheduler({ parallel: 6, maxActiveFiles: 3, autoRetryMs: 0 });
    off.retryLater(() => (retries += 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(retries).toBe(1);
  });

  it('shares its part slots between files fairly', async () => {
    const scheduler = new Scheduler({ parallel: 2, maxActiveFiles: 3, autoRetryMs: 0 });
    const order: string[] = [];
    const release: Array<() => void> = [];
    const part = (owner: string) =>
      scheduler.slots.run(
        () =>
          new Promise<void>((resolve) => {
            order.push(owner);
            release.push(resolve);
          }),
        owner,
      );
    const running = [part('large'), part('large'), part('large'), part('small')];
    await new Promise((resolve) => setTimeout(resolve, 0));
    release.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual(['large', 'large', 'small']);
    for (const done of release.splice(0)) done();
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (const done of release.splice(0)) done();
    await Promise.all(running);
  });
});

describe('progress meter', () => {
  it('counts stored parts and what is in flight; a retried part starts again from zero', () => {
    const total = new SpeedMeter();
    const progress = new FileProgress(0, total);
    expect(progress.report(1, 100)).toBe(true);
    expect(progress.report(1, 50)).toBe(false);
    expect(progress.report(2, 30)).toBe(true);
    expect(progress.loaded(1_000)).toBe(130);
    progress.restart(2);
    expect(progress.loaded(1_000)).toBe(100);
    progress.partStored(1, 400);
    expect(progress.loaded(1_000)).toBe(400);
    progress.report(2, 900);
    expect(progress.loaded(1_000)).toBe(1_000);
    progress.dropInflight();
    expect(progress.loaded(1_000)).toBe(400);
  });

  it('reads a speed from samples, over every file, and forgets idle time', () => {
    const total = new SpeedMeter();
    const a = new FileProgress(0, total);
    const b = new FileProgress(0, total);
    total.sample(0);
    a.speed.sample(0);
    a.report(1, 1_000);
    b.report(1, 3_000);
    total.sample(1_000);
    a.speed.sample(1_000);
    expect(a.speed.bytesPerSecond(1_000)).toBe(1_000);
    expect(total.bytesPerSecond(1_000)).toBe(4_000);
    total.reset();
    expect(total.bytesPerSecond(1_000)).toBe(0);
  });

  it('gives the bytes a stored record already has, and the totals of the list', () => {
    const base = { size: 50, partSize: 20, status: 'incomplete' } as UploadRecord;
    expect(storedBytesOf({ ...base, parts: [] })).toBe(0);
    expect(
      storedBytesOf({
        ...base,
        parts: [
          { PartNumber: 1, ETag: 'a' },
          { PartNumber: 3, ETag: 'c' },
        ],
      }),
    ).toBe(30);
    expect(storedBytesOf({ ...base, status: 'done', parts: [] })).toBe(50);
    const view = (status: UploadItemView['status'], size: number, loaded: number, needs: UploadItemView['needs'] = null) =>
      ({ status, size, loaded, needs }) as UploadItemView;
    const totals = totalsOf([view('uploading', 100, 40), view('queued', 100, 0), view('done', 50, 50), view('incomplete', 500, 10, 'file')], 20);
    expect(totals).toEqual({ files: 4, active: 2, size: 250, loaded: 90, percent: 36, speed: 20, secondsLeft: 8 });
  });
});
