/** Credits are ACTIVE when today lies between the start and end dates, both inclusive (C§4, A§4). */
export type CreditStatus = 'ACTIVE' | 'INACTIVE';

/** Dates as `YYYY-MM-DD`; `today` likewise, from `businessToday` (src/domain/business-calendar.ts). */
export function creditStatus(startDate: string | null, endDate: string | null, today: string): CreditStatus {
  if (!startDate || !endDate) return 'INACTIVE';
  return startDate <= today && today <= endDate ? 'ACTIVE' : 'INACTIVE';
}

/**
 * True when sending a project to editing can use a credit now: the credits are ACTIVE and not
 * all used (the rule the server applies when it consumes one). The page says so before the
 * confirmation, rather than asking to use a credit the organization does not have.
 */
export function hasCreditLeft(credits: { active: boolean; usedCredits: number; activeCredits: number }): boolean {
  return credits.active && credits.usedCredits < credits.activeCredits;
}
