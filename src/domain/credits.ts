/** Credits are ACTIVE when today lies between the start and end dates, both inclusive (C§4, A§4). */
export type CreditStatus = 'ACTIVE' | 'INACTIVE';

/** Dates as `YYYY-MM-DD`; `today` likewise, from `businessToday` (src/domain/business-calendar.ts). */
export function creditStatus(startDate: string | null, endDate: string | null, today: string): CreditStatus {
  if (!startDate || !endDate) return 'INACTIVE';
  return startDate <= today && today <= endDate ? 'ACTIVE' : 'INACTIVE';
}
