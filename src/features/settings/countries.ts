import { compareText } from '@/domain/collation.ts';
import { COUNTRY_CODES } from '@/domain/countries.ts';

let cached: { code: string; name: string }[] | null = null;

/** Every country with its English name, sorted by name as people sort (Åland Islands with the A's: src/domain/collation.ts). */
export function countryOptions(): { code: string; name: string }[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  cached = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort(compareText.by((country) => country.name));
  return cached;
}
