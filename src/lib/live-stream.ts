import { is } from 'superstruct';
import { LiveEventStruct, type LiveEvent } from '@/domain/contract/events.ts';
import { ApiError, isClientError } from './api-error.ts';

/** The first wait before reopening a failed stream; doubled on each failure up to the maximum. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export interface LiveStreamOptions {
  /** A fresh ticket for the stream (POST …/events/ticket): EventSource sends no header. */
  ticket: () => Promise<string>;
  /** The stream's URL with that ticket. */
  url: (ticket: string) => string;
  /** An event of the stream (small: what changed; the page reads the change through the API). */
  onEvent: (event: LiveEvent) => void;
  /**
   * The stream opened, or is back after a failure (network drop, server restart, its listener's
   * reconnect): events may have been missed, so everything it covers is read again.
   */
  onCatchUp: () => void;
}

/**
 * Server-Sent Events with a ticket (docs/api.md, "Live updates"). On any error the stream is
 * closed (the browser's own retry would reuse an expired ticket), and reopened with a new ticket
 * after a growing wait, or as soon as the browser is back online; reopening catches up. A ticket
 * the server refuses for good (404: no such project any more, 403, 401: the session ended) stops
 * it. The returned function stops it (the page unmounts).
 */
export function openLiveStream(options: LiveStreamOptions): () => void {
  let stopped = false;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  // The page's first reads and the stream's start race: a change between the two would be
  // missed, so the first open catches up too (one more read of what the page shows).
  let missedEvents = true;

  const connect = async () => {
    clearTimeout(timer);
    if (stopped || source) return;
    // Offline: nothing to do until the browser is back (the 'online' listener reconnects).
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      missedEvents = true;
      return;
    }
    let ticket: string;
    try {
      ticket = await options.ticket();
    } catch (error) {
      if (isClientError(error) && !(error instanceof ApiError && error.status === 429)) return;
      retry();
      return;
    }
    if (stopped || source) return;
    const opened = new EventSource(options.url(ticket));
    source = opened;
    opened.onopen = () => {
      failures = 0;
      if (missedEvents) options.onCatchUp();
      missedEvents = false;
    };
    opened.onmessage = (message: MessageEvent<string>) => {
      let event: unknown;
      try {
        event = JSON.parse(message.data);
      } catch {
        return;
      }
      if (!is(event, LiveEventStruct)) return;
      if (event.type === 'resync') options.onCatchUp();
      else options.onEvent(event);
    };
    opened.onerror = () => {
      drop();
      retry();
    };
  };
  const drop = () => {
    source?.close();
    source = null;
    missedEvents = true;
  };
  const retry = () => {
    if (stopped) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures) * (0.75 + Math.random() / 2);
    failures += 1;
    clearTimeout(timer);
    timer = setTimeout(() => void connect(), delay);
  };
  const online = () => {
    failures = 0;
    void connect();
  };
  const offline = () => {
    clearTimeout(timer);
    drop();
  };
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  void connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    source = null;
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
}
