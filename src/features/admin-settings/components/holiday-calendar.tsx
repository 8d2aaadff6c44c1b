import { useCallback, useState } from 'react';
import { businessToday } from '@/domain/business-calendar.ts';
import type { BusinessCalendarAnswer } from '@/domain/contract/holidays.ts';
import { HOLIDAY_MESSAGES, HOLIDAY_NAME_MAX, dayNumberOfDate, weekdayOfDayNumber, type Holiday } from '@/domain/holiday-calendar.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useFormSubmit } from '@/lib/form-errors.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { Badge } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { DataTable, type Column } from '@/ui/data-table.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { addHoliday, businessCalendarKey, getBusinessCalendar, removeHoliday, restoreHoliday } from '@/shared/business-calendar/api/business-calendar.ts';

type Field = 'date' | 'name';

/** "Thu, Nov 26": the date as written in the business zone (the date itself, no time, no zone shift). */
const DAY = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayLabel = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`));

function check(v: Record<Field, string>): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  const day = dayNumberOfDate(v.date);
  if (day === null) errors.date = HOLIDAY_MESSAGES.notADate;
  else if ([0, 6].includes(weekdayOfDayNumber(day))) errors.date = HOLIDAY_MESSAGES.weekend;
  if (!v.name.trim() || v.name.trim().length > HOLIDAY_NAME_MAX) errors.name = HOLIDAY_MESSAGES.name;
  return errors;
}

/** A superadmin's form: a weekday and its name become a holiday. */
function AddHolidayForm({ onSaved }: { onSaved: (answer: BusinessCalendarAnswer) => void }) {
  const form = useForm<Field>({ date: '', name: '' }, useCallback(check, []));
  const { busy, error, submit: run } = useFormSubmit(form);
  const submit = (event: React.FormEvent) =>
    run(event, async () => {
      onSaved(await addHoliday({ date: form.values.date, name: form.values.name.trim() }));
      form.clear(['date', 'name']);
    });
  return (
    <form noValidate onSubmit={submit} className="holiday-form" aria-label="Add a holiday">
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <div className="form-row holiday-form-row">
        <TextField label="Date" type="date" hint="A weekday, New York time" {...form.field('date')} />
        <TextField label="Name" autoComplete="off" placeholder="Day after Thanksgiving" maxLength={HOLIDAY_NAME_MAX} {...form.field('name')} />
        <Button type="submit" busy={busy} className="holiday-add">
          Add holiday
        </Button>
      </div>
    </form>
  );
}

/**
 * Admin settings, "Holidays" tab (issue 36 item 11): the days every SLA timer, deadline and
 * reminder leaves out, this year's and next year's. The US federal holidays (on the dates they
 * are observed) by default; a superadmin adds dates and removes or restores default ones, and
 * every running timer is counted again at once. Other staff see the list.
 */
export function HolidayCalendar({ canEdit }: { canEdit: boolean }) {
  const client = useQueryClient();
  const query = useQuery({ queryKey: businessCalendarKey(), queryFn: getBusinessCalendar });
  const [busyDate, setBusyDate] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const today = businessToday();
  const saved = (answer: BusinessCalendarAnswer) => client.setQueryData(businessCalendarKey(), answer);
  const act = async (holiday: Holiday) => {
    setBusyDate(holiday.date);
    setActionError(null);
    try {
      saved(holiday.removed ? await restoreHoliday(holiday.date) : await removeHoliday(holiday.date));
    } catch (e) {
      setActionError(errorMessage(e));
    } finally {
      setBusyDate(null);
    }
  };
  const columns: Column<Holiday>[] = [
    {
      key: 'date',
      header: 'Date',
      nowrap: true,
      cell: (h) => (
        <span className={h.removed ? 'holiday-removed' : h.date < today ? 'holiday-past' : 'strong'} title={h.date < today ? 'Passed' : undefined}>
          {dayLabel(h.date)}
        </span>
      ),
    },
    { key: 'name', header: 'Holiday', cell: (h) => <span className={h.removed ? 'holiday-removed' : undefined}>{h.name}</span> },
    {
      key: 'source',
      header: 'Kind',
      nowrap: true,
      cell: (h) =>
        h.removed ? (
          <Badge tone="warning" title="Removed: a business day again, the timers count it.">
            Removed
          </Badge>
        ) : h.source === 'added' ? (
          <Badge tone="info">Added</Badge>
        ) : (
          <Badge>Federal</Badge>
        ),
    },
    ...(canEdit
      ? [
          {
            key: 'action',
            header: <span className="sr-only">Action</span>,
            nowrap: true,
            cell: (h: Holiday) => (
              <Button
                variant={h.removed ? 'secondary' : 'ghost'}
                busy={busyDate === h.date}
                disabled={busyDate !== null}
                onClick={() => void act(h)}
                aria-label={`${h.removed ? 'Restore' : 'Remove'} ${h.name} (${h.date})`}
              >
                {h.removed ? 'Restore' : 'Remove'}
              </Button>
            ),
          },
        ]
      : []),
  ];
  const error = query.error ? errorMessage(query.error) : actionError;
  return (
    <section className="card" aria-label="Holidays">
      <header className="card-head">
        <div>
          <h2>Holidays</h2>
          <p className="card-sub">
            The 48-hour delivery timers, deadlines and reminders count Monday to Friday, New York time, but not these days. US federal holidays on the dates
            they are observed, unless removed.
            {canEdit ? ' Changes apply to every running timer at once.' : ' Only superadmins change them.'}
          </p>
        </div>
      </header>
      {canEdit && <AddHolidayForm onSaved={saved} />}
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <div className="holiday-years">
        {(query.data?.years ?? [null, null]).map((entry, index) => (
          <div key={entry?.year ?? index} className="holiday-year">
            <h3>{entry?.year ?? ' '}</h3>
            <DataTable
              label={`Holidays ${entry?.year ?? ''}`}
              columns={columns}
              rows={entry?.holidays ?? []}
              rowKey={(h) => `${h.date}-${h.source}`}
              loading={query.isLoading}
              empty="No holidays."
            />
          </div>
        ))}
      </div>
    </section>
  );
}
