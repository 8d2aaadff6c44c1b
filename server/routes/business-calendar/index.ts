import type { FastifyInstance } from 'fastify';
import { AddHolidayBodyStruct, type BusinessCalendarAnswer } from '../../../src/domain/contract/holidays.ts';
import { parse } from '../../http-error.ts';
import { addHoliday, readCalendar, removeHoliday, restoreHoliday } from '../../services/holiday-calendar.ts';

const dateOf = (params: unknown) => String((params as { date?: string }).date ?? '');

/**
 * Issue 36 item 11: the holiday calendar. Anyone signed in reads it (every timer counts on it);
 * only a superadmin edits it. Each edit answers the calendar after it.
 */
export default async function businessCalendarRoutes(app: FastifyInstance) {
  app.get('/business-calendar', { config: { access: 'signed-in' } }, async (): Promise<BusinessCalendarAnswer> => readCalendar(app.ctx.db));

  app.post('/business-calendar/holidays', { config: { access: 'superadmins' } }, async (request, reply) => {
    const { date, name } = parse(AddHolidayBodyStruct, request.body);
    return reply.code(201).send(await addHoliday(app.ctx.db, request.auth.user.id, date, name));
  });

  app.delete('/business-calendar/holidays/:date', { config: { access: 'superadmins' } }, async (request): Promise<BusinessCalendarAnswer> =>
    removeHoliday(app.ctx.db, request.auth.user.id, dateOf(request.params)),
  );

  app.post('/business-calendar/holidays/:date/restore', { config: { access: 'superadmins' } }, async (request): Promise<BusinessCalendarAnswer> =>
    restoreHoliday(app.ctx.db, dateOf(request.params)),
  );
}
