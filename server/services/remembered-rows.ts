import type { UserRow } from '../db/schema.ts';

/** Users kept per instance (a row is well under 1 KB); past it the one kept longest goes first. */
const MOST_USERS = 10_000;

/**
 * What is kept is read again after this long whatever was heard: a backstop for a notice that
 * never comes (a write with the triggers off, a listener cut off without the connection saying
 * so before its heartbeat notices, server/db/listen.ts). One read a user per 10 s costs nothing
 * next to one per request.
 */
export const REMEMBERED_MAX_AGE_MS = 10_000;

/** A changes-channel payload (migration 0023), or null for anything that is not one of ours. */
export type Changed = { board: true } | { userId: number } | { allUsers: true };

export function decodeChanged(payload: string): Changed | null {
  if (payload === 'board') return { board: true };
  if (payload === 'users') return { allUsers: true };
  const user = /^user:([1-9][0-9]{0,15})$/.exec(payload);
  return user ? { userId: Number(user[1]) } : null;
}

/**
 * Issue 34, "board at 50 connections": rows that every request reads — the session's user (and
 * the impersonating admin), to know the session still stands, and the board's version — answered
 * from memory while the database says they are unchanged. Exact, not merely recent:
 * - a row is dropped when its change is heard (migration 0023 notifies at commit). A write made
 *   through this instance is heard before its commit returns (PGlite delivers in-process; every
 *   pooled PostgreSQL connection listens, server/db/connect.ts), so a request never reads memory
 *   older than a write this instance answered. Another instance's write is heard on this
 *   instance's listener as soon as PostgreSQL delivers it (under a millisecond on one host);
 * - nothing is kept while the listener is not listening (before it starts, while its connection
 *   is lost): every request reads, as before; everything kept is dropped when it stops;
 * - a row read while a change was heard is not kept (the read may have seen the row before it):
 *   every change heard moves an epoch, and a read keeps its row only if the epoch did not move;
 * - nothing is kept longer than REMEMBERED_MAX_AGE_MS, for a notice that never comes.
 * Kept rows are frozen: they are shared by every request that asks for them.
 */
export class RememberedRows {
  #listening = false;
  #epoch = 0;
  readonly #users = new Map<number, { row: Readonly<UserRow>; until: number }>();
  /** The board's version; undefined when not known. */
  #boardVersion: { version: string | null; until: number } | undefined;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The user `id`, from memory or from `read` (kept when nothing changed meanwhile). */
  async user(id: number, read: () => Promise<UserRow | undefined>): Promise<Readonly<UserRow> | undefined> {
    const kept = this.#listening ? this.#users.get(id) : undefined;
    if (kept && this.#now() < kept.until) return kept.row;
    const epoch = this.#epoch;
    const row = await read();
    if (!row || !this.#keeps(epoch)) return row;
    const frozen = Object.freeze(row);
    this.#users.delete(id);
    this.#users.set(id, { row: frozen, until: this.#now() + REMEMBERED_MAX_AGE_MS });
    if (this.#users.size > MOST_USERS) this.#users.delete(this.#users.keys().next().value!);
    return frozen;
  }

  /** The board's version, from memory or from `read`. */
  async boardVersion(read: () => Promise<string | null>): Promise<string | null> {
    const kept = this.#listening ? this.#boardVersion : undefined;
    if (kept && this.#now() < kept.until) return kept.version;
    const epoch = this.#epoch;
    const version = await read();
    if (this.#keeps(epoch)) this.#boardVersion = { version, until: this.#now() + REMEMBERED_MAX_AGE_MS };
    return version;
  }

  /** A payload heard on the changes channel. */
  heard(payload: string): void {
    const changed = decodeChanged(payload);
    if (!changed) return;
    this.#epoch += 1;
    if ('board' in changed) this.#boardVersion = undefined;
    else if ('userId' in changed) this.#users.delete(changed.userId);
    else this.#users.clear();
  }

  /** The listener is listening (true) or not (false): either way what was kept may be stale. */
  listening(listening: boolean): void {
    this.#epoch += 1;
    this.#listening = listening;
    this.#users.clear();
    this.#boardVersion = undefined;
  }

  /** Whether rows are kept now (the listener is listening). */
  get isListening(): boolean {
    return this.#listening;
  }

  /** What is kept, for /metrics and tests. */
  get size(): { users: number; boardVersion: boolean } {
    return { users: this.#users.size, boardVersion: this.#boardVersion !== undefined };
  }

  #keeps(epoch: number): boolean {
    return this.#listening && epoch === this.#epoch;
  }
}
