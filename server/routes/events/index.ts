import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/events.ts';
import { EVENT_TICKET_SECONDS, type LiveEvent } from '../../../src/domain/contract/events.ts';
import { isStaffRole } from '../../../src/domain/roles.ts';
import { forbidden } from '../../http-error.ts';
import { openEventStream } from '../../events/sse.ts';
import { projectScope, sessionCaller, signTicket, ticketCaller } from '../../events/tickets.ts';
import { hasAccess } from '../../plugins/auth.ts';
import { visibleProject } from '../../services/project-access.ts';
import { route } from '../operation-route.ts';

/**
 * Live updates through Server-Sent Events (docs/api.md, "Live updates"). A signed-in caller asks
 * for a 60-second ticket for one stream; the stream itself is opened with the ticket in its
 * query (EventSource sends no header), so it is public to the auth plugin and checks the ticket
 * here: who it was handed to, that their session still stands and that they still may see the
 * project. Events name what changed and nothing more; pages read the change through the API.
 */
/** Customers are not told which version a comment is on (the version under edit is not theirs to know of). */
const withoutVersion = ({ version: _version, released: _released, ...event }: LiveEvent): LiveEvent => event;
/** A customer's stream hears of comments on released versions only: a cut not yet sent to them stays unknown. */
const customerHears = (event: LiveEvent) => event.type !== 'comment' || event.released !== false;

export default async function eventRoutes(app: FastifyInstance) {
  route(app, operations.projectEventsTicket, async ({ params: { id } }, request) => {
    await visibleProject(app.ctx, request.auth, id);
    return { ticket: await signTicket(app.ctx.config.jwtSecret, request.auth.user.id, request.session, projectScope(id)), expiresIn: EVENT_TICKET_SECONDS };
  });

  route(app, operations.projectEvents, async ({ params: { id }, query: { ticket } }, _request, reply) => {
    const { auth, claims } = await ticketCaller(app.ctx, ticket, projectScope(id));
    const project = await visibleProject(app.ctx, auth, id);
    const staff = isStaffRole(auth.user.role);
    openEventStream(app.events, reply, {
      userId: auth.user.id,
      impersonatorId: auth.impersonatorId,
      // The project's organization (a customer's own): its deletion ends staff's streams of its projects too.
      organizationId: project.organizationId,
      // Its project's changes, and a change of names shown with every project (projectId null).
      accepts: (event) => (event.projectId === id || event.projectId === null) && (staff || customerHears(event)),
      view: staff ? undefined : withoutVersion,
      stillAllowed: async () => Boolean(await visibleProject(app.ctx, await sessionCaller(app.ctx, claims), id)),
    });
    return reply;
  });

  route(app, operations.dashboardEventsTicket, async (_, request) => ({
    ticket: await signTicket(app.ctx.config.jwtSecret, request.auth.user.id, request.session, 'dashboard'),
    expiresIn: EVENT_TICKET_SECONDS,
  }));

  route(app, operations.dashboardEvents, async ({ query: { ticket } }, _request, reply) => {
    const { auth, claims } = await ticketCaller(app.ctx, ticket, 'dashboard');
    // A staff member who lost the role since the ticket was handed out.
    if (!hasAccess('staff', auth)) throw forbidden();
    // Every project's status or assignment changes, and names shown with projects (projectId
    // null: an editor's or an organization's); comments do not change a dashboard row.
    openEventStream(app.events, reply, {
      userId: auth.user.id,
      impersonatorId: auth.impersonatorId,
      accepts: (event) => event.type === 'project',
      stillAllowed: async () => hasAccess('staff', await sessionCaller(app.ctx, claims)),
    });
    return reply;
  });
}
