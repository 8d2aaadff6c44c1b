import { businessCalendar, type BusinessCalendar, type HolidayEdit } from '../../src/domain/holiday-calendar.ts';
import type { Db } from '../db/connect.ts';

/**
 * The last calendar built, by its edits: every instance reads the edits where it uses them (a
 * few rows), so it never counts with a calendar another instance changed; the holidays of each
 * year are worked out once per set of edits, not per request.
 */
let built: { key: string; calendar: BusinessCalendar } | null = null;

function calendarOf(edits: HolidayEdit[]): BusinessCalendar {
  const key = JSON.stringify(edits);
  if (built?.key !== key) built = { key, calendar: businessCalendar(edits) };
  return built.calendar;
}

/** The holiday calendar's edits (migration 0020), by date. */
export function holidaysRepo(db: Db) {
  return {
    async edits(): Promise<HolidayEdit[]> {
      return db.selectFrom('holidayEdits').select(['date', 'name', 'kind']).orderBy('date').execute();
    },
    /** The business calendar as this database has it now (in `db`'s transaction when it is one). */
    async calendar(): Promise<BusinessCalendar> {
      return calendarOf(await this.edits());
    },
    /** Records `edit`, replacing an edit of the same date. */
    async put(edit: HolidayEdit, editedBy: number): Promise<void> {
      await db
        .insertInto('holidayEdits')
        .values({ ...edit, editedBy })
        .onConflict((oc) => oc.column('date').doUpdateSet({ name: edit.name, kind: edit.kind, editedBy }))
        .execute();
    },
    /** Deletes the edit of `date` if it is of `kind`; false when there was none. */
    async delete(date: string, kind: HolidayEdit['kind']): Promise<boolean> {
      const result = await db.deleteFrom('holidayEdits').where('date', '=', date).where('kind', '=', kind).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
