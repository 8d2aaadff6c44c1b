/**
 * The product's one business calendar (docs/decisions.md "One business calendar"): every
 * calendar date "today" — credits ACTIVE or not, the expiry warning, coupon validity, card
 * expiry, subscription terms and renewals, trial days left — is the date in New York, the
 * zone of the SLA timer's business days (src/domain/sla-timer.ts). The browser, the upload
 * worker and every server instance compute the same date for the same instant, whatever
 * zone their machine is set to. Only ECMAScript `Intl` (no DOM, no Node APIs).
 */
export const BUSINESS_TIME_ZONE = 'America/New_York';

const formatter = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The business-calendar date (`YYYY-MM-DD`) at `instant`. */
export function businessDate(instant: Date | number | string): string {
  const at = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(at.getTime())) throw new RangeError(`Not an instant: ${String(instant)}`);
  let year = '';
  let month = '';
  let day = '';
  for (const part of formatter.formatToParts(at)) {
    if (part.type === 'year') year = part.value;
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  return `${year.padStart(4, '0')}-${month}-${day}`;
}

/** Today (`YYYY-MM-DD`) in the business calendar: the one "today" of the product. */
export function businessToday(now: Date = new Date()): string {
  return businessDate(now);
}
