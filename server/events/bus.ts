import { eventsRepo } from '../repositories/events.ts';
import { LiveEventStruct, type LiveEvent } from '../../src/domain/contract/events.ts';
import { is, number, object, optional, type Infer } from 'superstruct';
import type { Db } from '../db/connect.ts';

/**
 * The event bus: PostgreSQL's LISTEN/NOTIFY on one channel. Every change is published with
 * `pg_notify` through the database the change was written to, so every server instance on that
 * database hears it (each listens on one connection of its own, server/db/listen.ts),
 * and on embedded PGlite the same statement is heard in-process. A notification sent inside a
 * transaction is delivered at commit, and never if it rolls back.
 */
export const EVENTS_CHANNEL = 'cutdesk_events';

/** What a service says changed; the time is added here. */
/**
 * A comment change names the comment, so open pages read that thread alone (`GET projects/{id}/comments/{commentId}`).
 * A project change with `projectId` null concerns every project (a holiday calendar edit: every timer): every stream hears it.
 */
export type Change =
  { type: 'comment'; projectId: number; version: number; released: boolean; commentId?: number } | { type: 'project'; projectId: number | null };

/**
 * Access that ended, notified by the database itself at commit (migration 0019): a user disabled,
 * deleted or whose session version or role moved; a share link revoked or deleted; an
 * organization deleted. Never sent to a client: each instance checks its streams of that user,
 * link or organization again and ends those that may no longer listen (server/events/hub.ts).
 */
const AccessChangeStruct = object({ userId: optional(number()), shareLinkId: optional(number()), organizationId: optional(number()) });
export type AccessChange = Infer<typeof AccessChangeStruct>;

/** What the channel carries: an event for the streams, or an access change for the instance. */
export type Heard = { event: LiveEvent } | { access: AccessChange };

/** The notification's payload: the event as JSON (far below PostgreSQL's 8000-byte limit). */
export function encodeEvent(change: Change, at = new Date()): string {
  return JSON.stringify({ ...change, at: at.toISOString() } satisfies LiveEvent);
}

/** A payload as heard: an event, an access change, or null for anything that is not one of ours (never trusted blindly). */
export function decodeHeard(payload: string | undefined): Heard | null {
  if (!payload) return null;
  try {
    const value: unknown = JSON.parse(payload);
    if (is(value, LiveEventStruct)) return { event: value };
    if (typeof value === 'object' && value !== null && 'access' in value && is(value.access, AccessChangeStruct)) return { access: value.access };
    return null;
  } catch {
    return null;
  }
}

/**
 * Publishes `change` after its write committed. Live updates are a convenience: a failure here
 * is logged and never fails the change itself (the pages catch up on their next read).
 */
export async function publishChange(db: Db, change: Change): Promise<void> {
  try {
    await eventsRepo(db).notify(EVENTS_CHANNEL, encodeEvent(change));
  } catch (error) {
    console.warn('live update not published:', (error as Error).message);
  }
}
