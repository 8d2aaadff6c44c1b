import type { Page } from '@playwright/test';

interface NetworkConditions {
  offline: boolean;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

/** An answer the upload worker got (Playwright's own `response` events do not see a SharedWorker's requests). */
export type WorkerResponseListener = (response: { url: URL; method: string; status: number }) => void;

/**
 * DevTools network conditions for a page and for its upload worker. The upload worker is a
 * SharedWorker (it outlives a reload, issue 14): a DevTools target of its own, which the page's
 * emulation does not reach, so the conditions are sent to it too (over the browser's session).
 * Each call applies them to the page and to every upload worker alive at that moment, and from
 * then on reports that worker's answers to `onResponse`.
 */
export async function networkConditions(page: Page, onResponse?: WorkerResponseListener): Promise<(conditions: NetworkConditions) => Promise<void>> {
  const pageSession = await page.context().newCDPSession(page);
  await pageSession.send('Network.enable');
  const browserSession = await page.context().browser()!.newBrowserCDPSession();
  const attached = new Map<string, string>();
  const answers = new Map<number, () => void>();
  let lastId = 0;
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
  return async (conditions) => {
    await pageSession.send('Network.emulateNetworkConditions', conditions);
    const { targetInfos } = await browserSession.send('Target.getTargets');
    for (const target of targetInfos) {
      if (target.type !== 'shared_worker' || !target.url.includes('upload.worker')) continue;
      let sessionId = attached.get(target.targetId);
      if (!sessionId) {
        sessionId = (await browserSession.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })).sessionId;
        attached.set(target.targetId, sessionId);
        await toWorker(sessionId, 'Network.enable', {});
      }
      await toWorker(sessionId, 'Network.emulateNetworkConditions', conditions);
    }
  };
}
