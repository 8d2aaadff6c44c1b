/**
 * Text in the PDFs Cutdesk makes (issue 36): the review comments PDF (server), the brief and the
 * invoice (media worker), all jsPDF. A PDF shows only the glyphs of the fonts it embeds, so every
 * character a page shows needs a font that has it. One font does not cover everything, so each
 * character is drawn with the first font of a chain that has a glyph for it:
 *
 *   DejaVu Sans (Latin, Greek, Cyrillic, Hebrew, Arabic, many symbols; regular and bold)
 *   → Droid Sans Fallback (Chinese, Japanese, Korean; one weight, also used for bold)
 *   → Symbola (emoji and other symbols, monochrome TrueType outlines).
 *
 * A character none of them has is written as its code point, "[U+1F9CC]", never silently left out.
 * The CJK and emoji fonts are several MB each, so a document loads them only when its own text
 * needs them (loadPdfFontSet); jsPDF embeds only the glyphs used (a subset), so a Latin-only PDF
 * is exactly as big as before.
 *
 * jsPDF reads only a font's BMP character map and writes text as UTF-16 code units, so a character
 * beyond the BMP (emoji) is drawn through a private-use alias added to that document's copy of
 * the font's map, and the run carries its real text as /ActualText, which copy and search (and
 * pdftotext) read instead of the alias.
 *
 * Plain TypeScript shared by server and worker: the jsPDF document is taken by the few members
 * used (PdfTextDoc), the font files are read by the caller (disk or fetch).
 */

export type PdfFontFile = 'DejaVuSans.ttf' | 'DejaVuSans-Bold.ttf' | 'DroidSansFallback.ttf' | 'Symbola.ttf';
export type PdfFontStyle = 'normal' | 'bold';

/** The family the documents set (doc.setFont(PDF_FONT_FAMILY, style)): the chain's first font. */
export const PDF_FONT_FAMILY = 'DejaVu';

interface ChainLink {
  readonly family: string;
  /** The file per style; one file for both when the font has one weight. */
  readonly files: Readonly<Record<PdfFontStyle, PdfFontFile>>;
  /** Whether a character DejaVu lacks is probably this font's: decides what to load before anything is parsed. */
  readonly likelyFor: (code: number) => boolean;
}

/** Han, kana, Hangul, CJK punctuation and full-width forms: what the CJK font is loaded for. */
const isEastAsian = (code: number) =>
  (code >= 0x1100 && code <= 0x11ff) ||
  (code >= 0x2e80 && code <= 0x9fff) ||
  (code >= 0xa960 && code <= 0xa97f) ||
  (code >= 0xac00 && code <= 0xd7ff) ||
  (code >= 0xf900 && code <= 0xfaff) ||
  (code >= 0xfe30 && code <= 0xfe4f) ||
  (code >= 0xff00 && code <= 0xffef) ||
  (code >= 0x20000 && code <= 0x3ffff);

export const PDF_FONT_CHAIN: readonly ChainLink[] = [
  { family: PDF_FONT_FAMILY, files: { normal: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' }, likelyFor: () => true },
  { family: 'DroidSansFallback', files: { normal: 'DroidSansFallback.ttf', bold: 'DroidSansFallback.ttf' }, likelyFor: isEastAsian },
  { family: 'Symbola', files: { normal: 'Symbola.ttf', bold: 'Symbola.ttf' }, likelyFor: (code) => !isEastAsian(code) },
];

/** Characters that only change how the one before looks (joiners, variation selectors): dropped when no font has them. */
const isInvisible = (code: number) => code === 0x200c || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);
const isPrivateUse = (code: number) => code >= 0xe000 && code <= 0xf8ff;

/** A font file ready for jsPDF: base64 for its virtual file system, and its Unicode → glyph map. */
interface PreparedFont {
  readonly file: PdfFontFile;
  readonly base64: string;
  readonly glyphs: ReadonlyMap<number, number>;
}

/** The fonts one document embeds, chosen for its text. */
export interface PdfFontSet {
  readonly fonts: ReadonlyMap<PdfFontFile, PreparedFont>;
}

/**
 * A TrueType file's Unicode → glyph map, from its cmap table: the full-repertoire subtable
 * (format 12) when it has one, else the BMP one (format 4). Empty when unreadable.
 */
export function trueTypeGlyphMap(bytes: Uint8Array): Map<number, number> {
  const map = new Map<number, number>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = view.getUint16(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const entry = 12 + i * 16;
    if (String.fromCharCode(...bytes.subarray(entry, entry + 4)) === 'cmap') cmap = view.getUint32(entry + 8);
  }
  if (cmap < 0) return map;
  const subtables: { format: number; offset: number }[] = [];
  for (let i = 0, count = view.getUint16(cmap + 2); i < count; i++) {
    const platform = view.getUint16(cmap + 4 + i * 8);
    const encoding = view.getUint16(cmap + 6 + i * 8);
    const offset = cmap + view.getUint32(cmap + 8 + i * 8);
    if (platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10))) subtables.push({ format: view.getUint16(offset), offset });
  }
  const full = subtables.find((table) => table.format === 12);
  if (full) {
    for (let i = 0, groups = view.getUint32(full.offset + 12); i < groups; i++) {
      const group = full.offset + 16 + i * 12;
      const start = view.getUint32(group);
      const end = view.getUint32(group + 4);
      const glyph = view.getUint32(group + 8);
      for (let code = start; code <= end; code++) map.set(code, glyph + code - start);
    }
    return map;
  }
  const bmp = subtables.find((table) => table.format === 4);
  if (!bmp) return map;
  const at = bmp.offset;
  const segments = view.getUint16(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const end = view.getUint16(ends + s * 2);
    const start = view.getUint16(starts + s * 2);
    const delta = view.getUint16(deltas + s * 2);
    const rangeOffset = view.getUint16(rangeOffsets + s * 2);
    for (let code = start; code <= end && code !== 0xffff; code++) {
      let glyph: number;
      if (rangeOffset === 0) glyph = (code + delta) & 0xffff;
      else {
        const index = rangeOffsets + s * 2 + rangeOffset + (code - start) * 2;
        glyph = index + 2 <= bytes.length ? view.getUint16(index) : 0;
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph !== 0) map.set(code, glyph);
    }
  }
  return map;
}

/**
 * Reads one font file: its bytes, and the same as base64 (what jsPDF's virtual file system takes),
 * made by the platform's native encoder (Buffer, FileReaderSync): a multi-MB font through a
 * JavaScript loop and btoa takes seconds.
 */
export type PdfFontReader = (file: PdfFontFile) => Promise<{ bytes: Uint8Array; base64: string }>;

const prepared = new Map<PdfFontFile, Promise<PreparedFont>>();

function prepare(file: PdfFontFile, read: PdfFontReader): Promise<PreparedFont> {
  let font = prepared.get(file);
  if (!font) {
    font = read(file).then(({ bytes, base64 }) => ({ file, base64, glyphs: trueTypeGlyphMap(bytes) }));
    prepared.set(file, font);
    // A failed read is not kept: the next document tries again.
    font.catch(() => prepared.delete(file));
  }
  return font;
}

/** Every string inside `value` (an input object, arrays, nested objects), joined: what a document will write. */
export function textsOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textsOf).join('\n');
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value) && !(value instanceof Map) && !(value instanceof Date))
    return Object.values(value).map(textsOf).join('\n');
  return '';
}

/**
 * The fonts for a document that writes `text` (all of it: titles, names, the customers' texts),
 * each file read with `read` only when needed: DejaVu always; for characters DejaVu lacks, the
 * font they are likely in (CJK or emoji), then the rest of the chain only if some are still missing.
 */
export async function loadPdfFontSet(text: string, read: PdfFontReader): Promise<PdfFontSet> {
  const fonts = new Map<PdfFontFile, PreparedFont>();
  const load = async (links: readonly ChainLink[]) => {
    const files = [...new Set(links.flatMap((link) => [link.files.normal, link.files.bold]))].filter((file) => !fonts.has(file));
    for (const font of await Promise.all(files.map((file) => prepare(file, read)))) fonts.set(font.file, font);
  };
  const [first, ...rest] = PDF_FONT_CHAIN;
  await load([first!]);
  const codes = new Set<number>();
  for (const char of text) codes.add(char.codePointAt(0)!);
  const covered = (code: number, links: readonly ChainLink[]) =>
    links.some((link) => fonts.get(link.files.normal)?.glyphs.has(code) && fonts.get(link.files.bold)?.glyphs.has(code));
  const missing = [...codes].filter((code) => code >= 0x20 && !isInvisible(code) && !covered(code, [first!]));
  if (missing.length === 0) return { fonts };
  await load(rest.filter((link) => missing.some((code) => link.likelyFor(code))));
  if (missing.some((code) => !covered(code, PDF_FONT_CHAIN))) await load(rest);
  return { fonts };
}

/** The members of a jsPDF document this module uses. */
export interface PdfTextDoc {
  addFileToVFS(name: string, data: string): unknown;
  addFont(file: string, family: string, style: string): unknown;
  setFont(family: string, style?: string): unknown;
  getFont(family?: string, style?: string): { fontStyle: string; metadata?: unknown };
  getTextWidth(text: string): number;
  text(text: string, x: number, y: number, options?: object): unknown;
  processArabic?: (text: string) => string;
  /** jsPDF's raw writer to the page (not in its typings). */
  internal: { scaleFactor: number; write?: (...args: string[]) => void };
}

/** Embeds every font of the set in `doc` (DejaVu as PDF_FONT_FAMILY, normal and bold; the fallbacks as normal). */
export function embedPdfFonts(doc: PdfTextDoc, set: PdfFontSet): void {
  for (const link of PDF_FONT_CHAIN) {
    for (const style of ['normal', 'bold'] as const) {
      const font = set.fonts.get(link.files[style]);
      if (!font || (style === 'bold' && link.files.bold === link.files.normal)) continue;
      doc.addFileToVFS(font.file, font.base64);
      doc.addFont(font.file, link.family, style);
    }
  }
}

/**
 * jsPDF's text options for text already shaped and in display order: no reordering. Left to
 * jsPDF's guess, a line that starts with Hebrew or Arabic is taken as right-to-left and its
 * Latin words come out backwards ("world" as "dlrow").
 */
const VISUAL_TEXT = { isInputVisual: true, isOutputVisual: true, isInputRtl: false, isOutputRtl: false } as const;
/** Logical order in, display order out, in a left-to-right paragraph (Unicode's bidi algorithm, jsPDF's engine). */
const LOGICAL_TEXT = { isInputVisual: false, isOutputVisual: true, isInputRtl: false, isOutputRtl: false } as const;

interface Run {
  readonly family: string;
  readonly style: PdfFontStyle;
  /** What jsPDF draws: BMP characters as they are, others as their private-use alias. */
  readonly drawn: string;
  /** The run's real text when `drawn` holds aliases (for /ActualText), else null. */
  readonly actual: string | null;
}

/** jsPDF's parsed TrueType font (not in its typings): its BMP Unicode → glyph map. */
interface ParsedFont {
  cmap?: { unicode?: { codeMap?: Record<number, number> } };
}

/** Per jsPDF font copy: the private-use alias of each character beyond the BMP drawn with it. */
const aliases = new WeakMap<object, Map<number, string>>();

function aliasFor(doc: PdfTextDoc, family: string, style: PdfFontStyle, code: number, glyph: number): string {
  const metadata = doc.getFont(family, style).metadata as ParsedFont | undefined;
  const codeMap = metadata?.cmap?.unicode?.codeMap;
  if (!metadata || !codeMap) return `[U+${code.toString(16).toUpperCase()}]`;
  let own = aliases.get(metadata);
  if (!own) aliases.set(metadata, (own = new Map()));
  let alias = own.get(code);
  if (!alias) {
    let free = 0xe000;
    while (codeMap[free] !== undefined) free++;
    codeMap[free] = glyph;
    alias = String.fromCharCode(free);
    own.set(code, alias);
  }
  return alias;
}

const codePoint = (code: number) => `[U+${code.toString(16).toUpperCase().padStart(4, '0')}]`;

/** UTF-16BE hex with its byte-order mark: a PDF text string. */
const utf16Hex = (text: string) =>
  'FEFF' + Array.from({ length: text.length }, (_v, i) => text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')).join('');

/**
 * Writes and measures a customer's text in `doc` with the set's fonts: the family set on `doc`
 * must be PDF_FONT_FAMILY (its style, size and colour apply). All widths are in the doc's units.
 * `library` is the jsPDF class itself, for its bidi engine (a static a document does not carry).
 */
export function pdfText(doc: PdfTextDoc, set: PdfFontSet, library: object) {
  const styleNow = (): PdfFontStyle => (doc.getFont().fontStyle === 'bold' ? 'bold' : 'normal');

  /** The font of each character, grouped into runs, in the order given. */
  const runsOf = (chars: readonly string[], style: PdfFontStyle): Run[] => {
    const runs: { family: string; style: PdfFontStyle; drawn: string; actual: string; aliased: boolean }[] = [];
    const push = (family: string, runStyle: PdfFontStyle, drawn: string, actual: string, aliased: boolean) => {
      const last = runs.at(-1);
      if (last && last.family === family && last.style === runStyle) {
        last.drawn += drawn;
        last.actual += actual;
        last.aliased ||= aliased;
      } else runs.push({ family, style: runStyle, drawn, actual, aliased });
    };
    for (const char of chars) {
      const code = char.codePointAt(0)!;
      const link = PDF_FONT_CHAIN.find((candidate) => {
        const font = set.fonts.get(candidate.files[style]);
        // A private-use character is the customer's own: never one of our aliases.
        return font?.glyphs.has(code) && !(isPrivateUse(code) && candidate !== PDF_FONT_CHAIN[0]);
      });
      if (link) {
        const runStyle = link.files.bold === link.files.normal ? 'normal' : style;
        if (code <= 0xffff) push(link.family, runStyle, char, char, false);
        else push(link.family, runStyle, aliasFor(doc, link.family, runStyle, code, set.fonts.get(link.files[style])!.glyphs.get(code)!), char, true);
      } else if (code < 0x80) push(PDF_FONT_FAMILY, style, char, char, false);
      else if (!isInvisible(code)) push(PDF_FONT_FAMILY, style, codePoint(code), codePoint(code), false);
    }
    return runs.map((run) => ({ family: run.family, style: run.style, drawn: run.drawn, actual: run.aliased ? run.actual : null }));
  };

  const widthOf = (runs: readonly Run[]): number => {
    let width = 0;
    for (const run of runs) {
      doc.setFont(run.family, run.style);
      width += doc.getTextWidth(run.drawn);
    }
    return width;
  };

  /** `text` shaped (Arabic letters joined) and in display order, as characters: jsPDF's bidi engine, kept off surrogate halves. */
  const visual = (text: string): string[] => {
    const shaped = doc.processArabic ? doc.processArabic(text) : text;
    const chars = [...shaped];
    if (!chars.some((char) => /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/.test(char))) return chars;
    // One UTF-16 unit per character for the engine: a character beyond the BMP stands in as U+FFFC (neutral, like emoji).
    const proxy = chars.map((char) => (char.length > 1 ? '\ufffc' : char)).join('');
    const Engine = (library as { __bidiEngine__: new (options: object) => { doBidiReorder(text: string, map: number[]): string } }).__bidiEngine__;
    const order: number[] = [];
    new Engine(LOGICAL_TEXT).doBidiReorder(proxy, order);
    return order.length === chars.length ? order.map((index) => chars[index]!) : chars;
  };

  const api = {
    /** The width of `text` at the current size and style. */
    width(text: string): number {
      const style = styleNow();
      const width = widthOf(runsOf([...text], style));
      doc.setFont(PDF_FONT_FAMILY, style);
      return width;
    },

    /**
     * `text` in lines no wider than `maxWidth`: broken at spaces, between Chinese or Japanese
     * characters (which take no spaces), and inside a word only when it alone is too wide.
     */
    wrap(text: string, maxWidth: number): string[] {
      const tokens =
        text.match(
          /\s+|[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]|[^\s\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]+/gu,
        ) ?? [];
      const lines: string[] = [];
      let line = '';
      const fits = (candidate: string) => api.width(candidate) <= maxWidth;
      for (const token of tokens) {
        if (fits(line + token)) {
          line += token;
          continue;
        }
        if (/^\s+$/.test(token)) {
          lines.push(line.trimEnd());
          line = '';
          continue;
        }
        if (line.trim()) lines.push(line.trimEnd());
        line = '';
        for (const char of token) {
          if (line && !fits(line + char)) {
            lines.push(line);
            line = '';
          }
          line += char;
        }
      }
      if (line.trim() || lines.length === 0) lines.push(line.trimEnd());
      return lines;
    },

    /** Draws one line at baseline `y`: `x` is its left end, or its right end or middle with `align`. */
    draw(text: string, x: number, y: number, align: 'left' | 'right' | 'center' = 'left'): void {
      const style = styleNow();
      const runs = runsOf(visual(text), style);
      const width = widthOf(runs);
      let at = align === 'right' ? x - width : align === 'center' ? x - width / 2 : x;
      for (const run of runs) {
        doc.setFont(run.family, run.style);
        if (run.actual !== null) doc.internal.write?.(`/Span <</ActualText <${utf16Hex(run.actual)}>>> BDC`);
        doc.text(run.drawn, at, y, VISUAL_TEXT);
        if (run.actual !== null) doc.internal.write?.('EMC');
        at += doc.getTextWidth(run.drawn);
      }
      doc.setFont(PDF_FONT_FAMILY, style);
    },
  };
  return api;
}

export type PdfTextWriter = ReturnType<typeof pdfText>;
