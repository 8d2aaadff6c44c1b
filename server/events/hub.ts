import type { LiveEvent } from '../../src/domain/contract/events.ts';

/** One open stream, as the hub sees it. */
export interface LiveStream {
  userId: number;
  /** Whether this stream wants `event` (its project's, or any project's for the dashboard). */
  accepts(event: LiveEvent): boolean;
  send(event: LiveEvent): void;
  /** Ends the stream (shutdown). */
  close(): void;
}

/** Streams one user may keep open on one instance (tabs, pages); the next is refused with 429. */
export const MAX_STREAMS_PER_USER = 20;

/**
 * This instance's open streams, fed by its database listener: each event goes to the streams
 * that want it, in memory. A `resync` goes to every stream.
 */
export class EventHub {
  readonly #streams = new Set<LiveStream>();
  #closing = false;

  /** Adds `stream`; the returned function removes it (when its connection closes). */
  add(stream: LiveStream): () => void {
    this.#streams.add(stream);
    return () => this.#streams.delete(stream);
  }

  /** How many streams `userId` has open here. */
  openBy(userId: number): number {
    let count = 0;
    for (const stream of this.#streams) if (stream.userId === userId) count += 1;
    return count;
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Whether the server is shutting down (no new stream opens then). */
  get closing(): boolean {
    return this.#closing;
  }

  dispatch(event: LiveEvent): void {
    for (const stream of this.#streams) {
      if (event.type === 'resync' || stream.accepts(event)) stream.send(event);
    }
  }

  /** Ends every stream (server shutdown: an open stream would keep `close()` waiting). */
  closeAll(): void {
    this.#closing = true;
    for (const stream of [...this.#streams]) stream.close();
    this.#streams.clear();
  }
}
