import type { Page } from '@playwright/test';

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  browserContextId?: string;
}

/** What the store answered to each attempt of the corrupted part, in order. */
export interface Corruption {
  /** Statuses of the attempts of the part (the first was corrupted). */
  answers(): number[];
}

/**
 * Issue 35: flips one bit in the first attempt of part `partNumber` of the upload worker's
 * multipart uploads, on its way to the store, and lets later attempts go as sent. The worker
 * is a SharedWorker: Playwright's routes do not see its requests, so DevTools' Fetch domain does
 * it on the worker's own target. Fetch must be on before the worker's script has loaded (enabled
 * later, it never pauses a request: 10 of 10 side runs intercepted with this order, 1 of 6
 * without), so the script is held back by a route until it is. Call before the page opens.
 * Only this page's browser context is watched: a browser session hears of every context's
 * workers, a closing one of an earlier test's included.
 */
export async function corruptPartInFlight(page: Page, partNumber: number): Promise<Corruption> {
  const context = page.context();
  const pageSession = await context.newCDPSession(page);
  const { targetInfo: pageTarget } = (await pageSession.send('Target.getTargetInfo')) as { targetInfo: TargetInfo };
  await pageSession.detach();
  const browserSession = await context.browser()!.newBrowserCDPSession();
  context.once('close', () => void browserSession.detach().catch(() => undefined));
  let letWorkerStart: () => void = () => undefined;
  const fetchOn = new Promise<void>((resolve) => (letWorkerStart = resolve));
  await context.route(/upload\.worker/, async (route) => {
    await fetchOn;
    await route.continue();
  });
  const answers: number[] = [];
  const pending = new Map<number, () => void>();
  let lastId = 0;
  let sessionId = '';
  let corrupted = false;
  const partUrl = (url: string) => new URL(url).searchParams.get('partNumber') === String(partNumber);
  const toWorker = async (method: string, params: object) => {
    const id = (lastId += 1);
    const answered = new Promise<void>((resolve) => pending.set(id, resolve));
    await browserSession.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    await answered;
  };
  browserSession.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as {
      id?: number;
      method?: string;
      params?: { requestId: string; request: { url: string; postDataEntries?: { bytes?: string }[] }; responseStatusCode?: number };
    };
    if (message.id !== undefined) return pending.get(message.id)?.();
    if (message.method !== 'Fetch.requestPaused' || !message.params) return;
    const { requestId, request, responseStatusCode } = message.params;
    // Paused again with the store's answer: noted, and let through.
    if (responseStatusCode !== undefined) {
      if (partUrl(request.url)) answers.push(responseStatusCode);
      return void toWorker('Fetch.continueRequest', { requestId });
    }
    const entries = request.postDataEntries ?? [];
    if (corrupted || entries.length !== 1 || !entries[0]?.bytes) return void toWorker('Fetch.continueRequest', { requestId });
    corrupted = true;
    // The whole body as the worker sent it, one bit flipped in its middle, the length unchanged.
    const body = Buffer.from(entries[0].bytes, 'base64');
    body[body.length >> 1]! ^= 0x10;
    void toWorker('Fetch.continueRequest', { requestId, postData: body.toString('base64') });
  });
  browserSession.on('Target.targetCreated', (event: { targetInfo: TargetInfo }) => {
    const target = event.targetInfo;
    if (target.type !== 'shared_worker' || !target.url.includes('upload.worker') || target.browserContextId !== pageTarget.browserContextId || sessionId)
      return;
    void (async () => {
      ({ sessionId } = (await browserSession.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string });
      // Fetch only: the worker's own domains (Network) answer once its script runs, which waits for this.
      const urlPattern = `*partNumber=${partNumber}&*`;
      await toWorker('Fetch.enable', {
        patterns: [
          { urlPattern, requestStage: 'Request' },
          { urlPattern, requestStage: 'Response' },
        ],
      });
      letWorkerStart();
    })();
  });
  await browserSession.send('Target.setDiscoverTargets', { discover: true });
  return { answers: () => [...answers] };
}
