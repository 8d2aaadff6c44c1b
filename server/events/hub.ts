import type { LiveEvent } from '../../src/domain/contract/events.ts';
import type { AccessChange } from './bus.ts';

/** Whom a stream was opened for, beyond its user: what an access change may name. */
export interface StreamHolder {
  /** The staff member signed in as the user (Log In As), whose own access ending ends the stream too. */
  impersonatorId?: number | null;
  /** The user's organization, or the shared project's for a guest. */
  organizationId?: number | null;
  /** The share link a guest's stream was opened with. */
  shareLinkId?: number;
}

/** One open stream, as the hub sees it. */
export interface LiveStream extends StreamHolder {
  userId: number;
  /** Whether this stream wants `event` (its project's, or any project's for the dashboard). */
  accepts(event: LiveEvent): boolean;
  send(event: LiveEvent): void;
  /** Ends the stream (shutdown, access ended). */
  close(): void;
  /** Whether the stream may still listen: the checks that opened it, made again (an access change named it). */
  stillAllowed(): Promise<boolean>;
}

/** Streams one user may keep open on one instance (tabs, pages); the next is refused with 429. */
export const MAX_STREAMS_PER_USER = 20;

const named = (stream: LiveStream, change: AccessChange) =>
  (change.userId !== undefined && (stream.userId === change.userId || stream.impersonatorId === change.userId)) ||
  (change.shareLinkId !== undefined && stream.shareLinkId === change.shareLinkId) ||
  (change.organizationId !== undefined && stream.organizationId === change.organizationId);

/**
 * This instance's open streams, fed by its database listener: each event goes to the streams
 * that want it, in memory. A `resync` goes to every stream. An access change checks the streams
 * it names again and ends those whose access ended.
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

  /**
   * Access ended for a user, a share link or an organization (on any instance: the database
   * notified it). Each stream it names is checked again; one that may no longer listen is told to
   * read its page again (`resync`: the page's reads now fail as its access does: a guest sees
   * that the link ended, a signed-out user goes to sign in) and ends. A check that fails ends
   * the stream too: the client opens another one if it still may.
   */
  async accessChanged(change: AccessChange): Promise<void> {
    const checks = [...this.#streams]
      .filter((stream) => named(stream, change))
      .map(async (stream) => {
        if (await stream.stillAllowed().catch(() => false)) return;
        stream.send({ type: 'resync', projectId: null, at: new Date().toISOString() });
        stream.close();
      });
    await Promise.all(checks);
  }

  /** Ends every stream (server shutdown: an open stream would keep `close()` waiting). */
  closeAll(): void {
    this.#closing = true;
    for (const stream of [...this.#streams]) stream.close();
    this.#streams.clear();
  }
}
