/**
 * Prices are typed in currency units as people write them ("1,490.00", "1490", "49.5") and sent
 * as integer cents. Worked on the digits, never through floating point, so 0.29 stays 29 cents.
 */

/** Cents from a typed amount, or null when it is not one (negative, more than two decimals, stray text). */
export function parseMoneyInput(text: string): number | null {
  const value = text.trim().replace(/^[$€£]\s*/, '');
  const grouped = /^\d{1,3}(,\d{3})+(\.\d{0,2})?$/.test(value);
  if (!grouped && !/^\d+(\.\d{0,2})?$/.test(value) && !/^\.\d{1,2}$/.test(value)) return null;
  const [units = '', decimals = ''] = value.replace(/,/g, '').split('.');
  const cents = Number(units || '0') * 100 + Number(decimals.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** The amount as the form shows it for editing: 149000 → "1,490.00". */
export function centsToInput(cents: number): string {
  const units = Math.floor(cents / 100);
  return `${units.toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
}
