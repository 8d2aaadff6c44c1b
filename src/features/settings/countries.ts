import { COUNTRY_CODES } from '@/domain/countries.ts';

let cached: { code: string; name: string }[] | null = null;

/** Every country with its English name, sorted by name. */
export function countryOptions(): { code: string; name: string }[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  cached = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return cached;
}
