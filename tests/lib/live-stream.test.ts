import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/lib/api-error.ts';
import { openLiveStream } from '../../src/lib/live-stream.ts';

/** A stand-in for the browser's EventSource: the test opens, fails and feeds it. */
class FakeEventSource {
  static all: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeEventSource.all.push(this);
  }
  close() {
    this.closed = true;
  }
}

const event = (data: object) => ({ data: JSON.stringify(data) });
const flush = () => vi.advanceTimersByTimeAsync(0);

describe('live stream (EventSource with a ticket)', () => {
  let browser: EventTarget & { navigator?: { onLine: boolean } };
  const navigatorState = { onLine: true };
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.all = [];
    navigatorState.onLine = true;
    browser = new EventTarget();
    vi.stubGlobal('window', browser);
    vi.stubGlobal('navigator', navigatorState);
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens with a ticket, passes events on, and catches up when it opens', async () => {
    const onEvent = vi.fn();
    const onCatchUp = vi.fn();
    const stop = openLiveStream({ ticket: async () => 'T1', url: (ticket) => `/events?ticket=${ticket}`, onEvent, onCatchUp });
    await flush();
    const [source] = FakeEventSource.all;
    expect(source!.url).toBe('/events?ticket=T1');
    source!.onopen!();
    expect(onCatchUp).toHaveBeenCalledTimes(1);
    source!.onmessage!(event({ type: 'comment', projectId: 4, at: '2026-01-01T00:00:00.000Z' }));
    expect(onEvent).toHaveBeenCalledWith({ type: 'comment', projectId: 4, at: '2026-01-01T00:00:00.000Z' });
    // Not one of ours: ignored.
    source!.onmessage!({ data: 'nonsense' });
    source!.onmessage!(event({ type: 'secret', projectId: 4, at: 'x' }));
    expect(onEvent).toHaveBeenCalledTimes(1);
    // The server's listener was away: read everything again.
    source!.onmessage!(event({ type: 'resync', projectId: null, at: '2026-01-01T00:00:00.000Z' }));
    expect(onCatchUp).toHaveBeenCalledTimes(2);
    stop();
    expect(source!.closed).toBe(true);
  });

  it('after an error closes the stream, waits, gets a new ticket, reopens and catches up', async () => {
    let tickets = 0;
    const onCatchUp = vi.fn();
    const stop = openLiveStream({ ticket: async () => `T${++tickets}`, url: (ticket) => ticket, onEvent: () => {}, onCatchUp });
    await flush();
    FakeEventSource.all[0]!.onopen!();
    FakeEventSource.all[0]!.onerror!();
    expect(FakeEventSource.all[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeEventSource.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(FakeEventSource.all).toHaveLength(2);
    expect(FakeEventSource.all[1]!.url).toBe('T2');
    FakeEventSource.all[1]!.onopen!();
    expect(onCatchUp).toHaveBeenCalledTimes(2);
    stop();
  });

  it('waits for the browser to be online, then reopens at once', async () => {
    const onCatchUp = vi.fn();
    const stop = openLiveStream({ ticket: async () => 'T', url: (ticket) => ticket, onEvent: () => {}, onCatchUp });
    await flush();
    FakeEventSource.all[0]!.onopen!();
    navigatorState.onLine = false;
    browser.dispatchEvent(new Event('offline'));
    expect(FakeEventSource.all[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.all).toHaveLength(1);
    navigatorState.onLine = true;
    browser.dispatchEvent(new Event('online'));
    await flush();
    expect(FakeEventSource.all).toHaveLength(2);
    FakeEventSource.all[1]!.onopen!();
    expect(onCatchUp).toHaveBeenCalledTimes(2);
    stop();
  });

  it('stops for good when the server refuses the ticket (no such project any more), retries a network failure', async () => {
    const gone = vi.fn(async (): Promise<string> => {
      throw new ApiError(404, 'Not found');
    });
    openLiveStream({ ticket: gone, url: (ticket) => ticket, onEvent: () => {}, onCatchUp: () => {} });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(gone).toHaveBeenCalledTimes(1);

    let calls = 0;
    const flaky = vi.fn(async (): Promise<string> => {
      calls += 1;
      if (calls < 3) throw new ApiError(0, 'You are offline.');
      return 'T';
    });
    const stop = openLiveStream({ ticket: flaky, url: (ticket) => ticket, onEvent: () => {}, onCatchUp: () => {} });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(flaky).toHaveBeenCalledTimes(3);
    expect(FakeEventSource.all).toHaveLength(1);
    stop();
  });

  it('stops when the page unmounts, even while a ticket is on its way', async () => {
    let release!: (ticket: string) => void;
    const stop = openLiveStream({
      ticket: () => new Promise((resolve) => (release = resolve)),
      url: (ticket) => ticket,
      onEvent: () => {},
      onCatchUp: () => {},
    });
    stop();
    release('T');
    await flush();
    expect(FakeEventSource.all).toHaveLength(0);
  });
});
