import { fromZonedTime } from 'date-fns-tz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_TIME_ZONE, businessToday } from '../../src/domain/business-calendar.ts';
import type { BusinessCalendarAnswer } from '../../src/domain/contract/holidays.ts';
import { US_FEDERAL_CALENDAR, dateOfDayNumber, dayNumberOfDate, weekdayOfDayNumber } from '../../src/domain/holiday-calendar.ts';
import { businessMinutesBetween } from '../../src/domain/sla-timer.ts';
import { projectsRepo } from '../../server/repositories/projects.ts';
import { DATABASES, signIn, startTestServer, type TestServer } from './harness.ts';

type Headers = Record<string, string>;

const EMAILS = {
  SUPERADMIN: 'superadmin@demo.cutdesk.test',
  ADMIN: 'admin@demo.cutdesk.test',
  EDITOR: 'editor@demo.cutdesk.test',
  OWNER: 'owner@demo.cutdesk.test',
};

const startOf = (date: string) => fromZonedTime(`${date}T00:00:00`, BUSINESS_TIME_ZONE);
const isBusinessDay = (day: number) => ![0, 6].includes(weekdayOfDayNumber(day)) && US_FEDERAL_CALENDAR.holidayOnDay(day) === null;

/**
 * The latest weekday D such that D and the day after are business days of the default calendar
 * and both are over: a holiday added on D is in the past of every project submitted before it.
 */
function recentBusinessDay(now: Date): string {
  let day = dayNumberOfDate(businessToday(now))! - 2;
  while (!isBusinessDay(day) || !isBusinessDay(day + 1)) day -= 1;
  return dateOfDayNumber(day);
}

/** Issue 36 item 11: a superadmin edits the holiday calendar; every running timer counts on it at once. */
describe.each(DATABASES)('the holiday calendar on $name', ({ url }) => {
  let server: TestServer;
  const as = {} as Record<keyof typeof EMAILS, Headers>;
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, headers: Headers, payload?: object) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });
  const timerOrder = async () => {
    const response = await call('GET', '/projects?active=true&sort=timer&order=asc&limit=200', as.ADMIN);
    expect(response.statusCode).toBe(200);
    return (response.json().data.projects as { name: string }[]).map((p) => p.name);
  };

  beforeAll(async () => {
    server = await startTestServer(url);
    for (const [who, email] of Object.entries(EMAILS)) as[who as keyof typeof EMAILS] = await signIn(server.app, email);
  });
  afterAll(async () => server?.close());

  it('a holiday added by a superadmin changes a running project’s timer and the board order at once; others may only read', async () => {
    const day = recentBusinessDay(new Date());
    const nextDay = dateOfDayNumber(dayNumberOfDate(day)! + 1);
    // A was submitted an hour before the day D, B at the start of the day after: A has 24 h (and
    // the hour, if business) more elapsed; paused minutes leave A 23:30 behind B. With D a
    // holiday, A is 30 minutes ahead of B.
    const submittedA = new Date(startOf(day).getTime() - 3_600_000);
    const pausedA = businessMinutesBetween(submittedA, startOf(day), US_FEDERAL_CALENDAR) + 30;
    const org = await server.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow();
    const owner = await server.db.selectFrom('users').select('id').where('role', '=', 'OWNER').where('organizationId', '=', org.id).executeTakeFirstOrThrow();
    const ids: number[] = [];
    for (const [name, submitted, paused] of [
      ['Holiday A', submittedA, pausedA],
      ['Holiday B', startOf(nextDay), 0],
    ] as const) {
      const row = await server.db
        .insertInto('projects')
        .values({
          organizationId: org.id,
          userId: owner.id,
          editorId: null,
          name,
          status: 'IN_EDITING',
          latestSubmittedAt: submitted,
          pausedAt: null,
          totalPausedMinutes: paused,
          deletedAt: null,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    await projectsRepo(server.db).refreshSlaKeys(ids);
    const deadlines = async () =>
      (await server.db.selectFrom('projects').select(['name', 'slaDeadline']).where('id', 'in', ids).orderBy('name').execute()).map((r) =>
        Number(r.slaDeadline),
      );
    const before = await deadlines();
    const order = await timerOrder();
    expect(order.indexOf('Holiday A')).toBeLessThan(order.indexOf('Holiday B'));

    // Only a superadmin edits; anyone signed in reads.
    for (const who of ['ADMIN', 'EDITOR', 'OWNER'] as const) {
      expect((await call('POST', '/business-calendar/holidays', as[who], { date: day, name: 'Office closed' })).statusCode, who).toBe(403);
      expect((await call('DELETE', '/business-calendar/holidays/2026-11-26', as[who])).statusCode, who).toBe(403);
      expect((await call('POST', '/business-calendar/holidays/2026-11-26/restore', as[who])).statusCode, who).toBe(403);
      expect((await call('GET', '/business-calendar', as[who])).statusCode, who).toBe(200);
    }

    const added = await call('POST', '/business-calendar/holidays', as.SUPERADMIN, { date: day, name: '  Office closed ' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json<BusinessCalendarAnswer>().edits).toContainEqual({ date: day, name: 'Office closed', kind: 'added' });
    // B's stored deadline is 24 business hours earlier on the clock (D no longer counts before it); A's is the same.
    const after = await deadlines();
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]! - 86_400_000);
    const edited = await timerOrder();
    expect(edited.indexOf('Holiday A')).toBeGreaterThan(edited.indexOf('Holiday B'));

    // Removing it puts things back.
    const removed = await call('DELETE', `/business-calendar/holidays/${day}`, as.SUPERADMIN);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<BusinessCalendarAnswer>().edits).toEqual([]);
    expect(await deadlines()).toEqual(before);
    const back = await timerOrder();
    expect(back.indexOf('Holiday A')).toBeLessThan(back.indexOf('Holiday B'));
  });

  it('removes and restores a default holiday, and refuses what cannot be a holiday', async () => {
    const thanksgiving = '2026-11-26';
    const list = (answer: BusinessCalendarAnswer) => answer.years.flatMap((y) => y.holidays);
    const removed = await call('DELETE', `/business-calendar/holidays/${thanksgiving}`, as.SUPERADMIN);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<BusinessCalendarAnswer>().edits).toEqual([{ date: thanksgiving, name: 'Thanksgiving Day', kind: 'removed' }]);
    if (list(removed.json()).some((h) => h.date === thanksgiving))
      expect(list(removed.json())).toContainEqual({ date: thanksgiving, name: 'Thanksgiving Day', source: 'federal', removed: true });
    // A removed default is restored, not added again.
    expect((await call('POST', '/business-calendar/holidays', as.SUPERADMIN, { date: thanksgiving, name: 'Thanksgiving' })).statusCode).toBe(409);
    const restored = await call('POST', `/business-calendar/holidays/${thanksgiving}/restore`, as.SUPERADMIN);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<BusinessCalendarAnswer>().edits).toEqual([]);
    expect((await call('POST', `/business-calendar/holidays/${thanksgiving}/restore`, as.SUPERADMIN)).statusCode).toBe(404);
    // Already a holiday, a Saturday, no name, not a date, nothing to remove.
    expect((await call('POST', '/business-calendar/holidays', as.SUPERADMIN, { date: thanksgiving, name: 'Again' })).statusCode).toBe(409);
    const saturday = await call('POST', '/business-calendar/holidays', as.SUPERADMIN, { date: '2026-11-28', name: 'Saturday' });
    expect(saturday.statusCode).toBe(400);
    expect(saturday.json().fields).toHaveProperty('date');
    expect((await call('POST', '/business-calendar/holidays', as.SUPERADMIN, { date: '2026-11-27', name: ' ' })).json().fields).toHaveProperty('name');
    expect((await call('POST', '/business-calendar/holidays', as.SUPERADMIN, { date: '2026-02-30', name: 'Nope' })).statusCode).toBe(400);
    expect((await call('DELETE', '/business-calendar/holidays/2026-11-27', as.SUPERADMIN)).statusCode).toBe(404);
    expect((await call('DELETE', '/business-calendar/holidays/not-a-date', as.SUPERADMIN)).statusCode).toBe(404);
  });
});
