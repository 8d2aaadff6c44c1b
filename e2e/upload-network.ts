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

/**
 * DevTools network conditions for a page and for its upload worker. The upload worker is a
 * SharedWorker (it outlives a reload, issue 14): a DevTools target of its own, which the page's
 * emulation does not reach, so the conditions are sent to it too, over a browser session that
 * attaches to every upload worker of the page's browser context — those alive now, and those
 * started later as soon as they appear (the page starts its worker with the first file when
 * IndexedDB holds no upload), which is long before its first part: the worker loads, opens
 * IndexedDB and asks the server for the storage left, a name and credentials first. (Holding a
 * new worker until then would need an auto-attach, which the browser target offers only in the
 * flat protocol, and Playwright's CDP sessions cannot speak to flat child sessions.) Every call
 * applies the conditions to the page and to those workers; the workers' answers go to `onResponse`.
 */
export async function networkConditions(page: Page, onResponse?: WorkerResponseListener): Promise<(conditions: NetworkConditions) => Promise<void>> {
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
    const message = JSON.parse(event.message) as { id?: number; method?: string; params?: { requestId: string; request?: { method: string }; response?: { url: string; status: number } } };
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
    if (target.type !== 'shared_worker' || !target.url.includes('upload.worker') || target.browserContextId !== pageTarget.browserContextId || workers.has(target.targetId)) return;
    const attaching = (async () => {
      const { sessionId } = (await browserSession.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
      // Both at once: the conditions first (they need no `enable`), the answers reported after.
      await Promise.all([latest ? toWorker(sessionId, 'Network.emulateNetworkConditions', latest) : null, toWorker(sessionId, 'Network.enable', {})]);
      return sessionId;
    })().catch(() => null);
    workers.set(target.targetId, attaching);
  };
  browserSession.on('Target.targetCreated', (event: { targetInfo: TargetInfo }) => attach(event.targetInfo));
  browserSession.on('Target.targetDestroyed', (event: { targetId: string }) => workers.delete(event.targetId));
  await browserSession.send('Target.setDiscoverTargets', { discover: true });
  return async (conditions) => {
    latest = conditions;
    await pageSession.send('Network.emulateNetworkConditions', conditions);
    const { targetInfos } = (await browserSession.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
    for (const target of targetInfos) attach(target);
    for (const attaching of workers.values()) {
      const sessionId = await attaching;
      if (sessionId) await toWorker(sessionId, 'Network.emulateNetworkConditions', conditions);
    }
  };
}
