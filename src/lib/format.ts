const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const DATE_UTC = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * "Mar 5, 2027". A plain `YYYY-MM-DD` is a calendar date and is shown as written; a full
 * timestamp is shown in the viewer's time zone.
 */
export function formatDate(value: string | null | undefined, fallback = '—'): string {
  if (!value) return fallback;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return DATE_UTC.format(new Date(`${value}T00:00:00Z`));
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : DATE.format(date);
}

export function fullName(person: { firstName: string; lastName: string } | null | undefined): string {
  return person ? `${person.firstName} ${person.lastName}`.trim() : '';
}

/** "3 days", "1 day". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${Math.abs(count) === 1 ? one : many}`;
}

/** "$1,188.00", "€99.00": the domain's, so the pages and the server's messages write money alike. */
export { formatMoney } from '@/domain/billing.ts';
