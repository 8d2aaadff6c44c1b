import type { Page } from '@playwright/test';

interface NetworkConditions {
  offline: boolean;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

/** An answer the upload worker got (Playwright's own `response` events do not see a SharedWorker's requests). */
export type WorkerResponseListener = (response: { url: URL; method: string; status: number }) => void;

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  browserContextId?: string;
}

/** Sets the network conditions of the page and of its upload workers. */
export interface NetworkSwitch {
  (conditions: NetworkConditions): Promise<void>;
  /**
   * Settles once an upload worker of the page's context runs and every one has the latest
   * conditions. Call it before giving a file: DevTools cannot hold a new shared worker until its
   * conditions are on (the browser starts it as soon as any client, here Playwright, lets it go),
   * so a worker started by the pick could send its first part before they reach it.
   */
  uploadWorkerReady(): Promise<void>;
}

/**
 * DevTools network conditions for a page and for its upload worker. The upload worker is a
 * SharedWorker (it outlives a reload, issue 14): a DevTools target of its own, which the page's
 * emulation does not reach, so the conditions are sent to it too, over a browser session that
 * attaches to every upload worker of the page's browser context — those alive now, and those
 * started later as soon as they appear. The page starts its worker when it shows a zone that
 * takes files (`warmUploads`); a test waits for `uploadWorkerReady()` before it gives a file.
 * Every call applies the conditions to the page and to those workers; the workers' answers go
 * to `onResponse`.
 */
export async function networkConditions(page: Page, onResponse?: WorkerResponseListener): Promise<NetworkSwitch> {
  const pageSession = await page.context().newCDPSession(page);
  await pageSession.send('Network.enable');
  const { targetInfo: pageTarget } = (await pageSession.send('Target.getTargetInfo')) as { targetInfo: TargetInfo };
  const browserSession = await page.context().browser()!.newBrowserCDPSession();
  page.context().once('close', () => void browserSession.detach().catch(() => undefined));
  const answers = new Map<number, () => void>();
  let lastId = 0;
  let latest: NetworkConditions | null = null;
  const methods = new Map<string, string>();
  browserSession.on('Target.receivedMessageFromTarget', (event: { message: string }) => {
    const message = JSON.parse(event.message) as {
      id?: number;
      method?: string;
      params?: { requestId: string; request?: { method: string }; response?: { url: string; status: number } };
    };
    if (message.id !== undefined) answers.get(message.id)?.();
    if (message.method === 'Network.requestWillBeSent' && message.params?.request) methods.set(message.params.requestId, message.params.request.method);
    if (message.method === 'Network.responseReceived' && message.params?.response) {
      const { requestId, response } = message.params;
      onResponse?.({ url: new URL(response.url), method: methods.get(requestId) ?? 'GET', status: response.status });
    }
  });
  const toWorker = async (sessionId: string, method: string, params: object) => {
    const id = (lastId += 1);
    const answered = new Promise<void>((resolve) => answers.set(id, resolve));
    await browserSession.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    await answered;
    answers.delete(id);
  };
  /** Attaching to each upload worker of this context, by target (settles once its conditions are on). */
  const workers = new Map<string, Promise<string | null>>();
  const attach = (target: TargetInfo) => {
    if (
      target.type !== 'shared_worker' ||
      !target.url.includes('upload.worker') ||
      target.browserContextId !== pageTarget.browserContextId ||
      workers.has(target.targetId)
    )
      return;
    const attaching = (async () => {
      const { sessionId } = (await browserSession.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
      // `enable` first: conditions sent before it, or alongside it, are answered but not applied
      // to a shared worker's requests (12 of 12 PUTs unthrottled in a side test; 12 of 12
      // throttled with this order).
      await toWorker(sessionId, 'Network.enable', {});
      if (latest) await toWorker(sessionId, 'Network.emulateNetworkConditions', latest);
      return sessionId;
    })().catch(() => null);
    workers.set(target.targetId, attaching);
  };
  browserSession.on('Target.targetCreated', (event: { targetInfo: TargetInfo }) => attach(event.targetInfo));
  browserSession.on('Target.targetDestroyed', (event: { targetId: string }) => workers.delete(event.targetId));
  await browserSession.send('Target.setDiscoverTargets', { discover: true });
  /** The upload workers alive now, each with the latest conditions. */
  const applyToWorkers = async (conditions: NetworkConditions | null) => {
    const { targetInfos } = (await browserSession.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
    for (const target of targetInfos) attach(target);
    let attached = 0;
    for (const attaching of workers.values()) {
      const sessionId = await attaching;
      if (!sessionId) continue;
      attached += 1;
      if (conditions) await toWorker(sessionId, 'Network.emulateNetworkConditions', conditions);
    }
    return attached;
  };
  const set = async (conditions: NetworkConditions) => {
    latest = conditions;
    await pageSession.send('Network.emulateNetworkConditions', conditions);
    await applyToWorkers(conditions);
  };
  return Object.assign(set, {
    async uploadWorkerReady() {
      // A worker attached here gets the latest conditions before its attach settles.
      const giveUp = Date.now() + 20_000;
      for (let wait = 25; (await applyToWorkers(null)) === 0; wait = Math.min(wait * 2, 250)) {
        if (Date.now() > giveUp)
          throw new Error('No upload worker started: the page shows no zone that takes files, or the browser gave it a dedicated worker.');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    },
  });
}
