import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { collationKey, compareCodePoints, comparePhones, compareText, phoneKey } from '../../src/domain/collation.ts';

/** Sorts by the server's key, as `ORDER BY key COLLATE "C" NULLS LAST` does. */
const byKey = (make: (text: string | null) => string | null) => (a: string | null, b: string | null) => {
  const x = make(a);
  const y = make(b);
  if (x === null || y === null) return Number(x === null) - Number(y === null);
  return compareCodePoints(x, y);
};

/**
 * Letters with and without accents and case, ligatures, digits, every ASCII space and
 * punctuation mark, a currency sign, Greek, Cyrillic (ё with е, й on its own), Han, and the
 * no-break space: the characters whose order the key promises to keep.
 */
const TRICKY = [...'aAbBeEzZéÉèÈêöÖåÅñçßæÆœŒøłŁðİĲǆﬁ0123456789 \u00a0_-,.;:!?\'"()[]{}@*/\\&#%`^+<=>|~$€αΑάβσςΣΩωбБёЁеЕжйЙи東京中'];
const trickyText = fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 8 });

describe('people-facing text sorts as people expect (issue 36, item 8)', () => {
  test('accents and case sort with their letter, numbers by value, empty last', () => {
    const names = ['Zeta studio', '', 'Project 12', 'Échelle', 'zeta studio', null, 'Delta', 'Project 6', '  ', 'echelle', 'Project 06'];
    expect([...names].sort(compareText)).toEqual([
      'Delta',
      'echelle',
      'Échelle',
      'Project 06',
      'Project 6',
      'Project 12',
      'Zeta studio',
      'zeta studio',
      '',
      null,
      '  ',
    ]);
    expect(['Ørsted', 'Oslo', 'Łódź', 'Lima', 'Straße 2', 'Strasse 10'].sort(compareText)).toEqual([
      'Lima',
      'Łódź',
      'Ørsted',
      'Oslo',
      'Straße 2',
      'Strasse 10',
    ]);
  });

  test('the server key in byte order is the comparator order, ties broken alike (any mix of the tricky characters)', () => {
    fc.assert(
      fc.property(fc.array(trickyText, { maxLength: 12 }), (texts) => {
        expect([...texts].sort(byKey(collationKey))).toEqual([...texts].sort(compareText));
      }),
      { numRuns: 400 },
    );
  });

  test('the key is null for blank text, has no NUL, and ignores surrounding spaces', () => {
    expect(collationKey('   ')).toBeNull();
    expect(collationKey(null)).toBeNull();
    expect(collationKey(' Zeta ')).toBe(collationKey('Zeta'));
    fc.assert(fc.property(fc.string({ maxLength: 20 }), (text) => !(collationKey(text) ?? '').includes('\0')));
  });

  test('phones sort by their digits as numbers; no digits last', () => {
    const phones = ['15550123456', '+1 555 0100', '5550142', null, '(555) 0188', '05550142', '-'];
    expect([...phones].sort(comparePhones)).toEqual(['05550142', '5550142', '(555) 0188', '+1 555 0100', '15550123456', null, '-']);
    expect([...phones].sort(byKey(phoneKey))).toEqual([...phones].sort(comparePhones));
  });
});
