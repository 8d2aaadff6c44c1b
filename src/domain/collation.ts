/**
 * How people-facing text sorts (issue 36, item 8): the way a person reads a list, not the way
 * a computer stores the letters. "Échelle" sorts with the E's (between "Delta" and "Zeta"),
 * "zeta" and "Zeta" sit together, "Project 6" comes before "Project 12", and a row with no
 * value goes last.
 *
 * Two forms of one rule:
 * - `compareText`, for lists sorted in the browser: `Intl.Collator` ('en', numeric, base
 *   strength: letters only, accents and case ignored), then the text itself, code point by code
 *   point, so the order is total and the same on every run.
 * - `collationKey`, for lists the server sorts and pages: a string whose plain byte order
 *   (PostgreSQL's `COLLATE "C"`) is that same order. The databases cannot collate like people:
 *   the embedded PGlite has no ICU and a server's collations vary with its operating system, so
 *   the key is made here, in JavaScript, stored beside the text (migration 0021) and compared
 *   byte by byte by both databases alike (docs/decisions.md, issue 36 item 8).
 *
 * The key spells the text as units that compare in the collator's order: spaces and ASCII
 * punctuation first (in the collator's own order of them), then other symbols, then numbers
 * (each run of digits by its value: its length, then its digits, leading zeros dropped), then
 * letters (accents dropped, case folded, by code point, which is the collator's script order
 * for Latin, Greek, Cyrillic, Hebrew, Arabic, kana and Han). After the units comes \u0001 and
 * the text itself, the tie-break. The key is made from fixed tables, never from the running
 * `Intl`, so a key stored today still compares right with one made by a later Node.
 *
 * Where the two can part: letters the collator tails by hand (ŧ after t, ı after i, ə after e,
 * Ukrainian є і ї among the Russian letters, scripts whose code points run out of the
 * collator's order such as Georgian) sort by code point in the key, and fractions or
 * superscript digits count as their digits. None of these changes where a Latin, Greek or
 * Russian name lands among its neighbours.
 */

/** The collator's order of the ASCII spaces and punctuation (CLDR root, `en`): each one's rank is its unit. */
const PUNCTUATION_ORDER = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$';
const PUNCTUATION_RANK = new Map([...PUNCTUATION_ORDER].map((char, rank) => [char, rank]));
/** Punctuation units are \u0002 + rank: below every other unit (and above the tie-break's \u0001). */
const PUNCTUATION_BASE = 0x02;
/** Other symbols and punctuation: this marker, then the character (after ASCII punctuation, before numbers). */
const SYMBOL_MARK = String.fromCharCode(PUNCTUATION_BASE + PUNCTUATION_ORDER.length);
/** A number: this marker, the count of its length's digits, its length, its digits. */
const NUMBER_MARK = String.fromCharCode(PUNCTUATION_BASE + PUNCTUATION_ORDER.length + 1);
/** Between the units and the text that breaks ties: below every unit, so "ab" sorts before "abc". */
const TIE_BREAK = '\u0001';

/** Letters the collator does not split into a base letter and an accent, but that decompose (NFKD) into one. */
const WHOLE_LETTERS = new Set(['й', 'Й', 'ў', 'Ў']);
/** Letters the collator treats as another letter or letters (at base strength) that do not decompose. */
const LETTER_FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', ħ: 'h', ı: 'i', ς: 'σ' };

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The text a list sorts by: trimmed; undefined when nothing is left (such rows sort last). */
function sortable(text: string | null | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

/** Compares two strings code point by code point, the order of `COLLATE "C"` on UTF-8 (UTF-16 units differ above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
  }
  return x.length - y.length;
}

/**
 * Orders people-facing text as a person expects (see the module comment); empty text last.
 * For `Array.prototype.sort`; `by` picks the text of a row: `rows.sort(compareText.by((r) => r.name))`.
 */
export function compareText(a: string | null | undefined, b: string | null | undefined): number {
  const x = sortable(a);
  const y = sortable(b);
  if (x === undefined || y === undefined) return Number(x === undefined) - Number(y === undefined);
  return collator.compare(x, y) || compareCodePoints(x, y);
}
compareText.by =
  <T>(text: (row: T) => string | null | undefined) =>
  (a: T, b: T): number =>
    compareText(text(a), text(b));

/** `text` as the key compares it: accents dropped (NFKD: ﬁ → fi, Ａ → a, é → e), case folded, letters folded. */
function fold(text: string): string {
  let folded = '';
  for (const char of text.normalize('NFC')) {
    if (WHOLE_LETTERS.has(char)) folded += char.toLowerCase();
    else
      for (const letter of char
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase())
        folded += LETTER_FOLDS[letter] ?? letter;
  }
  return folded;
}

/** A run of digits as a unit that sorts by its value: 6 before 12, 06 as 6. */
function numberUnit(digits: string): string {
  const value = digits.replace(/^0+(?=\d)/, '');
  const length = String(value.length);
  return NUMBER_MARK + String(length.length) + length + value;
}

/** The units of `text` (see the module comment), without the tie-break. */
function units(text: string): string {
  let key = '';
  for (const part of fold(text).match(/\d+|./gsu) ?? []) {
    if (/^\d/.test(part)) key += numberUnit(part);
    else if (/[\p{Cc}\p{Cf}]/u.test(part)) continue;
    else if (/\s/u.test(part)) key += String.fromCharCode(PUNCTUATION_BASE);
    else if (PUNCTUATION_RANK.has(part)) key += String.fromCharCode(PUNCTUATION_BASE + PUNCTUATION_RANK.get(part)!);
    else if (/[\p{P}\p{S}]/u.test(part)) key += SYMBOL_MARK + part;
    else key += part;
  }
  return key;
}

/**
 * The sort key of people-facing text for the server's lists: compared byte by byte
 * (`COLLATE "C"`) it orders like `compareText`. Null when the text is empty, so a query puts
 * it last with `nulls last`.
 */
export function collationKey(text: string | null | undefined): string | null {
  const value = sortable(text);
  return value === undefined ? null : units(value) + TIE_BREAK + value;
}

/** The digits of a phone number, as dialled: "+1 (555) 010-0" → "15550100". */
function phoneDigits(phone: string | null | undefined): string {
  return (phone ?? '').normalize('NFKC').replace(/\D/g, '');
}

/**
 * Phones sort by their digits alone (spaces, brackets, dashes and "+" ignored), as numbers:
 * 5550100 before 15550123456. Leading zeros break ties only; no digits sorts last.
 */
export function comparePhones(a: string | null | undefined, b: string | null | undefined): number {
  const x = phoneKey(a);
  const y = phoneKey(b);
  if (x === null || y === null) return Number(x === null) - Number(y === null);
  return compareCodePoints(x, y);
}

/** The sort key of a phone for the server's lists, in `comparePhones`'s order; null when it has no digits. */
export function phoneKey(phone: string | null | undefined): string | null {
  const digits = phoneDigits(phone);
  return digits ? numberUnit(digits) + TIE_BREAK + digits + TIE_BREAK + phone!.trim() : null;
}
