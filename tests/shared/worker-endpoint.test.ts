import * as Comlink from 'comlink';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { sharedWithRetry, UPLOAD_WORKER_RETRIES } from '../../src/shared/uploads/worker-endpoint.ts';
import { UPLOAD_WORKER_LISTENING } from '../../workers/upload/types.ts';

/**
 * Real message channels and comlink on both sides; a shared worker is what the browser gives the
 * page of one: a port, and an `error` event when its script cannot be loaded.
 */
interface Api {
  start(name: string, onSnapshot: (text: string) => void): Promise<string>;
}

type Fake = SharedWorker & { fail(): void; listen(): void };

function sharedWorker(label: string): Fake {
  const channel = new MessageChannel();
  const api: Api = {
    async start(name, onSnapshot) {
      await onSnapshot(`${label} started for ${name}`);
      return label;
    },
  };
  const events = new EventTarget();
  return Object.assign(events, {
    port: channel.port1 as unknown as MessagePort,
    onerror: null,
    fail: () => events.dispatchEvent(new Event('error')),
    // What upload.worker.ts does on a new port.
    listen: () => {
      Comlink.expose(api, channel.port2 as unknown as MessagePort);
      channel.port2.postMessage(UPLOAD_WORKER_LISTENING);
    },
  }) as unknown as Fake;
}

/** A start whose snapshots are recorded in `seen`. */
const startRecording = (remote: Comlink.Remote<Api>, name: string, seen: string[]) =>
  remote.start(
    name,
    Comlink.proxy((text: string) => void seen.push(text)),
  );

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the shared upload worker, started again through the app’s service worker when it cannot start', () => {
  it('holds the calls until the worker listens, then sends them there, callbacks included', async () => {
    const first = sharedWorker('first');
    const opened: Fake[] = [];
    const remote = Comlink.wrap<Api>(
      sharedWithRetry({
        first: (opened.push(first), first),
        reopen: () => {
          throw new Error('no second try wanted');
        },
        leaveOwnScope: async () => true,
        onPort: () => undefined,
      }),
    );
    const seen: string[] = [];
    const started = startRecording(remote, 'owner', seen);
    await settle();
    first.listen();
    expect(await started).toBe('first');
    expect(seen).toEqual(['first started for owner']);
    expect(opened).toHaveLength(1);
  });

  it('leaves its own scope and starts a new worker when the first fails; the waiting calls and everything after go to it', async () => {
    const workers = [sharedWorker('own scope'), sharedWorker('app scope')];
    const opened: Fake[] = [];
    const ports: MessagePort[] = [];
    let left = 0;
    const remote = Comlink.wrap<Api>(
      sharedWithRetry({
        first: (opened.push(workers[0]!), workers[0]!),
        reopen: () => {
          const next = workers[opened.length]!;
          opened.push(next);
          return next;
        },
        leaveOwnScope: async () => ((left += 1), true),
        onPort: (port) => void ports.push(port),
      }),
    );
    const seen: string[] = [];
    const started = startRecording(remote, 'owner', seen);
    workers[0]!.fail();
    await settle();
    expect(left).toBe(1);
    expect(opened).toHaveLength(2);
    workers[1]!.listen();
    expect(await started).toBe('app scope');
    expect(
      await remote.start(
        'again',
        Comlink.proxy((text: string) => void seen.push(text)),
      ),
    ).toBe('app scope');
    expect(seen).toEqual(['app scope started for owner', 'app scope started for again']);
    expect(ports).toEqual([workers[0]!.port, workers[1]!.port]);
  });

  it('tries again, each time under a name of its own, a bounded number of times; no own scope to leave starts nothing more', async () => {
    const workers = Array.from({ length: UPLOAD_WORKER_RETRIES + 2 }, (_, index) => sharedWorker(`try ${index}`));
    const retries: number[] = [];
    let left = 0;
    let opened = 1;
    sharedWithRetry({
      first: workers[0]!,
      reopen: (retry) => (retries.push(retry), workers[opened++]!),
      leaveOwnScope: async () => ((left += 1), true),
      onPort: () => undefined,
      retryPauseMs: 1,
    });
    for (let failed = 0; failed <= UPLOAD_WORKER_RETRIES; failed++) {
      workers[failed]!.fail();
      await settle();
    }
    // The first retry at once through the app's service worker, then after a pause; never more.
    expect(retries).toEqual([1, 2, 3]);
    expect(opened).toBe(UPLOAD_WORKER_RETRIES + 1);
    expect(left).toBe(1);

    let openedWithoutScope = 0;
    const lone = sharedWorker('lone');
    sharedWithRetry({
      first: (openedWithoutScope++, lone),
      reopen: () => (openedWithoutScope++, lone),
      leaveOwnScope: async () => false,
      onPort: () => undefined,
    });
    lone.fail();
    await settle();
    expect(openedWithoutScope).toBe(1);
  });

  it('a later try that listens gets the calls made while the others failed', async () => {
    const workers = [sharedWorker('own scope'), sharedWorker('app scope, failed'), sharedWorker('app scope, later')];
    let opened = 1;
    const remote = Comlink.wrap<Api>(
      sharedWithRetry({ first: workers[0]!, reopen: () => workers[opened++]!, leaveOwnScope: async () => true, onPort: () => undefined, retryPauseMs: 1 }),
    );
    const seen: string[] = [];
    const started = startRecording(remote, 'owner', seen);
    workers[0]!.fail();
    await settle();
    workers[1]!.fail();
    await settle();
    workers[2]!.listen();
    expect(await started).toBe('app scope, later');
    expect(seen).toEqual(['app scope, later started for owner']);
  });

  it('stays with a worker that listens: a later error event changes nothing', async () => {
    const worker = sharedWorker('first');
    let opened = 0;
    const remote = Comlink.wrap<Api>(
      sharedWithRetry({ first: (opened++, worker), reopen: () => (opened++, worker), leaveOwnScope: async () => true, onPort: () => undefined }),
    );
    worker.listen();
    expect(
      await remote.start(
        'owner',
        Comlink.proxy(() => undefined),
      ),
    ).toBe('first');
    worker.fail();
    await settle();
    expect(
      await remote.start(
        'owner',
        Comlink.proxy(() => undefined),
      ),
    ).toBe('first');
    expect(opened).toBe(1);
  });
});
