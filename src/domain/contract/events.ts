import { boolean, enums, integer, object, string, type Infer } from 'superstruct';
import { min, nullable, optional } from './schema-notes.ts';
import { defineOperation } from './define.ts';
import { Id } from './fields.ts';

/**
 * Live updates (Server-Sent Events): what a stream says, and the ticket that opens one.
 *
 * An event carries no private data, only what changed: the page that receives it reads the
 * change again through the normal, authorized API. So a listener never learns more than the API
 * would tell it. `resync` means "events may have been lost" (this server's database listener
 * reconnected) or "this stream's access ended" (it ends next): read everything again.
 */
export const LIVE_EVENT_TYPES = ['comment', 'project', 'resync'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

export const LiveEventStruct = object({
  type: enums(LIVE_EVENT_TYPES),
  /** The project that changed; null for `resync`, and for a `project` event of names shown with every project (an editor's, an organization's). */
  projectId: nullable(Id),
  /** The review version a comment is on (staff streams only). */
  version: optional(integer()),
  /** Whether that version was released to the customer (staff streams only): customer streams never hear of a cut not yet sent to them. */
  released: optional(boolean()),
  /** The comment that changed (created, edited, resolved, deleted): its thread is read again, not the list. */
  commentId: optional(Id),
  /** When the change was published (ISO 8601). */
  at: string(),
});
export type LiveEvent = Infer<typeof LiveEventStruct>;

/** How long a ticket opens a stream (seconds). */
export const EVENT_TICKET_SECONDS = 60;

/**
 * POST projects/{id}/events/ticket, POST dashboard/events/ticket: EventSource sends no header, so
 * the stream is opened with this short-lived ticket in its query (`?ticket=`), never the session token.
 */
export const EventTicketStruct = object({ ticket: string(), expiresIn: min(integer(), 1) });
export type EventTicket = Infer<typeof EventTicketStruct>;

/** The stream's own query: the ticket. */
export const EventStreamQueryStruct = object({ ticket: optional(string()) });

export const projectEventsTicket = defineOperation({ method: 'POST', path: '/projects/{id}/events/ticket', access: 'signed-in', answer: EventTicketStruct });
/** Public to the auth plugin (EventSource sends no header): the ticket in the query is the credential, checked by the route. */
export const projectEvents = defineOperation({ method: 'GET', path: '/projects/{id}/events', access: 'public', query: EventStreamQueryStruct });
export const dashboardEventsTicket = defineOperation({ method: 'POST', path: '/dashboard/events/ticket', access: 'staff', answer: EventTicketStruct });
/** Public to the auth plugin, as the project's stream. */
export const dashboardEvents = defineOperation({ method: 'GET', path: '/dashboard/events', access: 'public', query: EventStreamQueryStruct });
