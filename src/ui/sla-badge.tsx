import { holidayAt, slaPauseReason, slaTimer, type SlaInput } from '@/domain/sla-timer.ts';
import { useBusinessCalendar } from './business-calendar.ts';
import { useNow } from './use-now.ts';

/** What a labelled timer says once the delivery window has run out. */
const OVERDUE_LABEL = 'Overdue by';

const PAUSE_NOTES = { weekend: 'Paused for the weekend', holiday: 'Paused for the holiday', paused: 'Paused' } as const;
const PAUSE_TITLES = {
  weekend: 'The 48 business hours do not count on Saturdays and Sundays: the timer resumes on Monday.',
  holiday: 'The 48 business hours do not count on public holidays: the timer resumes on the next business day.',
  paused: 'Editing is paused: the timer resumes when editing does.',
} as const;

/**
 * The 48-business-hour timer as HH:MM, red when overdue, refreshed every `refreshMs`. A timer
 * that stands still says why with `explainPause` (a weekend, a holiday or a pause), so a frozen value
 * does not look broken to a customer. A labelled timer ("Delivery in") says "Overdue by 03:15"
 * once it runs out rather than "Delivery in -03:15"; the staff's bare figures keep the sign.
 */
export function SlaBadge({
  project,
  refreshMs,
  label,
  explainPause = false,
}: {
  project: SlaInput;
  refreshMs: number;
  label?: string;
  explainPause?: boolean;
}) {
  const now = useNow(refreshMs);
  const calendar = useBusinessCalendar();
  const timer = slaTimer(project, now, calendar);
  const pause = explainPause ? slaPauseReason(project, now, calendar) : null;
  // On a holiday the note names it ("Paused for Thanksgiving Day").
  const note = pause === 'holiday' ? `Paused for ${holidayAt(now, calendar) ?? 'the holiday'}` : pause && PAUSE_NOTES[pause];
  return (
    <span
      className={`sla ${timer.overdue ? 'sla-overdue' : ''} ${timer.running ? 'sla-running' : ''}`}
      data-testid="sla-timer"
      data-running={timer.running}
      title={pause ? PAUSE_TITLES[pause] : 'Business hours left of the 48-hour delivery window'}
    >
      {label && <span className="sla-label">{timer.overdue ? OVERDUE_LABEL : label}</span>}
      {label && timer.overdue ? timer.text.replace(/^-/, '') : timer.text}
      {pause && (
        <span className="sla-paused" data-testid="sla-paused">
          {' '}
          · {note}
        </span>
      )}
    </span>
  );
}
