import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/holidays.ts';
import { addHoliday, readCalendar, removeHoliday, restoreHoliday } from '../../services/holiday-calendar.ts';
import { route } from '../operation-route.ts';

/**
 * Issue 36 item 11: the holiday calendar. Anyone signed in reads it (every timer counts on it);
 * only a superadmin edits it. Each edit answers the calendar after it.
 */
export default async function businessCalendarRoutes(app: FastifyInstance) {
  route(app, operations.getBusinessCalendar, async () => readCalendar(app.ctx.db));

  route(app, operations.addHoliday, async ({ body }, request) => addHoliday(app.ctx.db, request.auth.user.id, body.date, body.name));

  route(app, operations.removeHoliday, async ({ params }, request) => removeHoliday(app.ctx.db, request.auth.user.id, params.date));

  route(app, operations.restoreHoliday, async ({ params }) => restoreHoliday(app.ctx.db, params.date));
}
