import { describe, expect, it } from 'vitest';
import { CSV_BOM } from '../../src/domain/csv.ts';
import { CSV_HEADER, EDL_START_TIMECODE, toCsv, toEdl, toFcpxml, type MarkerComment, type MarkerExport } from '../../server/review/export-markers.ts';
import { timecodeToFrame, type FrameRate } from '../../src/domain/timecode.ts';

const R2997: FrameRate = { num: 30000, den: 1001 };
const R25: FrameRate = { num: 25, den: 1 };
const R23976: FrameRate = { num: 24000, den: 1001 };

const COMMENTS: MarkerComment[] = [
  { frame: 1800, text: 'Say "hello", then cut', author: 'Dana, Marketing', resolved: false },
  { frame: 0, endFrame: 48, text: 'Line one\nline two\r\nline three', author: 'Ann', resolved: true },
  { frame: 17982, text: 'Logo <&> "brand" | pipe', author: '<script>', resolved: false },
  { frame: 107892, endFrame: 107900, text: '=HYPERLINK("http://evil.example","click")', author: '@mallory', resolved: false },
  { frame: 300, text: "-2 dB on the music, +1 on VO; it's fine", author: 'Bo', resolved: true },
  { frame: 301, text: '\tleading tab', author: '+plus', resolved: false },
];
const SORTED = [...COMMENTS].sort((a, b) => a.frame - b.frame);

const input = (rate: FrameRate, extra: Partial<MarkerExport> = {}): MarkerExport => ({
  projectName: 'Spring "Launch" <promo>',
  version: 3,
  rate,
  durationFrames: 120000,
  comments: COMMENTS,
  ...extra,
});

/** RFC 4180: fields separated by commas, records by CRLF, quoted fields may hold anything with "" for a quote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i += 1;
      continue;
    }
    if (c === '"') {
      if (field !== '') throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else if (c === '\n' || c === '\r') throw new Error(`bare line break outside quotes at ${i}`);
    else field += c;
    i += 1;
  }
  if (quoted) throw new Error('unterminated quote');
  if (field !== '' || row.length > 0) throw new Error('last record lacks its CRLF');
  return rows;
}

/** The CSV's records after its byte order mark (which must be there). */
function csvRows(csv: string): string[][] {
  expect(csv.startsWith(CSV_BOM)).toBe(true);
  return parseCsv(csv.slice(CSV_BOM.length));
}

describe('toCsv', () => {
  it('parses back to the comments, in frame order', () => {
    const rows = csvRows(toCsv(input(R2997)));
    expect(rows[0]).toEqual([...CSV_HEADER]);
    expect(rows[0]!.join(',')).toBe('Number,Reply to,Timecode,End,Author,Status,Comment');
    expect(rows).toHaveLength(COMMENTS.length + 1);
    rows.slice(1).forEach((row, i) => {
      const comment = SORTED[i]!;
      expect(row).toHaveLength(7);
      expect(row.slice(0, 2)).toEqual([String(i + 1), '']);
      expect(timecodeToFrame(row[2]!, R2997)).toBe(comment.frame);
      expect(row[3] === '' ? null : timecodeToFrame(row[3]!, R2997)).toBe(comment.endFrame ?? null);
      expect(row[5]).toBe(comment.resolved ? 'Resolved' : 'Open');
      const unescape = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);
      expect(unescape(row[4]!)).toBe(comment.author);
      expect(unescape(row[6]!)).toBe(comment.text);
    });
  });

  it('starts with a UTF-8 byte order mark, so Excel reads 日本, café and emoji as they are', () => {
    const csv = toCsv(input(R25, { comments: [{ frame: 0, text: 'café 日本 🎬', author: 'Zoë', resolved: false }] }));
    const bytes = Buffer.from(csv, 'utf8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csvRows(csv)[1]).toEqual(['1', '', '00:00:00:00', '', 'Zoë', 'Open', 'café 日本 🎬']);
  });

  it('lists the replies under their thread, naming the thread they answer', () => {
    const comments: MarkerComment[] = [
      { frame: 50, text: 'Later', author: 'Ann', resolved: false },
      {
        frame: 10,
        endFrame: 20,
        text: 'Too dark',
        author: 'Ann',
        resolved: true,
        replies: [
          { text: 'Lifted +1 stop', author: 'Eddie' },
          { text: '=Thanks', author: 'Ann' },
        ],
      },
      { frame: 30, text: 'gone', author: 'Bo', resolved: false, deleted: true, replies: [{ text: 'Still relevant?', author: 'Eddie' }] },
    ];
    expect(csvRows(toCsv(input(R25, { comments }))).slice(1)).toEqual([
      ['1', '', '00:00:00:10', '00:00:00:20', 'Ann', 'Resolved', 'Too dark'],
      ['', '1', '00:00:00:10', '00:00:00:20', 'Eddie', 'Resolved', 'Lifted +1 stop'],
      ['', '1', '00:00:00:10', '00:00:00:20', 'Ann', 'Resolved', "'=Thanks"],
      ['2', '', '00:00:01:05', '', 'Bo', 'Deleted', ''],
      ['', '2', '00:00:01:05', '', 'Eddie', 'Deleted', 'Still relevant?'],
      ['3', '', '00:00:02:00', '', 'Ann', 'Open', 'Later'],
    ]);
    // The marker formats carry the live threads only, without their replies.
    const edl = toEdl(input(R25, { comments }));
    expect(edl.split('\r\n').filter((l) => MARKER.test(l))).toEqual([
      ' |C:ResolveColorGreen |M:Ann: Too dark |D:10',
      ' |C:ResolveColorBlue |M:Ann: Later |D:1',
    ]);
    const markers = checkXml(toFcpxml(input(R25, { comments }))).filter((e) => e.name === 'marker');
    expect(markers.map((m) => m.attributes.note)).toEqual(['Too dark', 'Later']);
  });

  it('keeps quotes, commas and line breaks inside one cell', () => {
    const rows = csvRows(toCsv(input(R25)));
    expect(rows.find((r) => r[4] === 'Dana, Marketing')?.[6]).toBe('Say "hello", then cut');
    expect(rows.find((r) => r[4] === 'Ann')?.[6]).toBe('Line one\nline two\r\nline three');
    expect(rows.find((r) => r[4] === 'Ann')?.slice(2, 4)).toEqual(['00:00:00:00', '00:00:01:23']);
  });

  it('neutralizes formulas with a leading apostrophe', () => {
    const rows = csvRows(toCsv(input(R25)));
    const cells = rows.flat();
    expect(cells).toContain('\'=HYPERLINK("http://evil.example","click")');
    expect(cells).toContain("'@mallory");
    expect(cells).toContain("'-2 dB on the music, +1 on VO; it's fine");
    expect(cells).toContain("'\tleading tab");
    expect(cells).toContain("'+plus");
    for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('quotes every cell, so a semicolon-separated Excel never splits a comment into a formula', () => {
    const csv = toCsv(input(R25, { comments: [{ frame: 1, text: 'note;=1+1', author: "x;=cmd|' /C calc'!A0", resolved: false }] }));
    const line = csv.split('\r\n')[1]!;
    expect(line).toBe('"1","","00:00:00:01","","x;=cmd|\' /C calc\'!A0","Open","note;=1+1"');
  });

  it('writes only the header without comments', () => {
    expect(toCsv(input(R25, { comments: [] }))).toBe('\uFEFFNumber,Reply to,Timecode,End,Author,Status,Comment\r\n');
  });
});

/** An event line: number, reel 001, video, cut, then source in/out and record in/out (the spaces are the format's). */
const EVENT =
  /^(\d{3,}) {2}001 {6}V {5}C {8}(\d{2}:\d{2}:\d{2}[:;]\d{2}) (\d{2}:\d{2}:\d{2}[:;]\d{2}) (\d{2}:\d{2}:\d{2}[:;]\d{2}) (\d{2}:\d{2}:\d{2}[:;]\d{2})$/;
const MARKER = /^ \|C:(ResolveColor\w+) \|M:([^|\r\n]*) \|D:(\d+)$/;

describe('toEdl', () => {
  it.each([
    ['29.97 DF', R2997, 'DROP FRAME'],
    ['25', R25, 'NON-DROP FRAME'],
    ['23.976', R23976, 'NON-DROP FRAME'],
  ])('puts each marker on its frame at %s', (_, rate, fcm) => {
    const lines = toEdl(input(rate)).split('\r\n');
    expect(lines[0]).toBe('TITLE: Spring "Launch" <promo> v03');
    expect(lines[1]).toBe(`FCM: ${fcm}`);
    const start = timecodeToFrame(EDL_START_TIMECODE, rate)!;
    const events = lines.filter((l) => EVENT.test(l));
    const markers = lines.filter((l) => MARKER.test(l));
    expect(events).toHaveLength(COMMENTS.length);
    expect(markers).toHaveLength(COMMENTS.length);
    // Nothing but the title, the FCM, events, markers and blank lines.
    expect(lines.length).toBe(3 + COMMENTS.length * 3);
    for (const l of lines.slice(2)) expect(l === '' || EVENT.test(l) || MARKER.test(l)).toBe(true);
    events.forEach((line, i) => {
      const [, number, srcIn, srcOut, recIn, recOut] = EVENT.exec(line)!;
      const comment = SORTED[i]!;
      expect(Number(number)).toBe(i + 1);
      expect(timecodeToFrame(recIn!, rate)! - start).toBe(comment.frame);
      expect(timecodeToFrame(recOut!, rate)! - start).toBe(comment.frame + 1);
      expect(srcIn).toBe(recIn);
      expect(srcOut).toBe(recOut);
      expect(recIn!.includes(';')).toBe(fcm === 'DROP FRAME');
      const [, color, name, duration] = MARKER.exec(markers[i]!)!;
      expect(color).toBe(comment.resolved ? 'ResolveColorGreen' : 'ResolveColorBlue');
      expect(Number(duration)).toBe(comment.endFrame ? comment.endFrame - comment.frame : 1);
      expect(name).toContain(comment.author);
    });
  });

  it('writes the example event of Resolve’s format', () => {
    const edl = toEdl(input(R25, { comments: [{ frame: 250, text: 'Fix colour', author: 'Ann', resolved: false }] }));
    expect(edl).toContain('001  001      V     C        01:00:10:00 01:00:10:01 01:00:10:00 01:00:10:01\r\n |C:ResolveColorBlue |M:Ann: Fix colour |D:1\r\n');
  });

  it('puts the text on one line without pipes', () => {
    const markers = toEdl(input(R25))
      .split('\r\n')
      .filter((l) => MARKER.test(l));
    expect(markers).toContain(' |C:ResolveColorGreen |M:Ann: Line one line two line three |D:48');
    expect(markers).toContain(' |C:ResolveColorBlue |M:<script>: Logo <&> "brand" pipe |D:1');
  });

  it('turns control characters into spaces', () => {
    const edl = toEdl(input(R25, { comments: [{ frame: 0, text: 'a\u0007b\u2028c\fd', author: 'x', resolved: false }] }));
    expect(edl).toContain(' |M:x: a b c d |D:1');
  });

  it('counts 29.97 drop-frame from 01:00:00;00', () => {
    const edl = toEdl(input(R2997, { comments: [{ frame: 1800, text: 'x', author: 'a', resolved: false }] }));
    expect(edl).toContain('01:01:00;02 01:01:00;03 01:01:00;02 01:01:00;03');
  });
});

interface Element {
  name: string;
  attributes: Record<string, string>;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decode(value: string): string {
  return value.replace(/&(#\d+|#x[0-9a-fA-F]+|\w+);/g, (all, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    if (!(entity in ENTITIES)) throw new Error(`unknown entity ${all}`);
    return ENTITIES[entity]!;
  });
}

/**
 * A tiny well-formedness check: one root, every tag closed in order, attributes quoted and
 * unique, no raw < or stray & in text or attributes. Returns the elements in document order.
 */
function checkXml(xml: string): Element[] {
  const elements: Element[] = [];
  const stack: string[] = [];
  let rest = xml.replace(/^<\?xml [^?]*\?>\s*/, '').replace(/^<!DOCTYPE \w+>\s*/, '');
  let roots = 0;
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const text = lt === -1 ? rest : rest.slice(0, lt);
    if (/&(?!(#\d+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);)/.test(text) || text.includes('>')) throw new Error(`bad text ${JSON.stringify(text)}`);
    if (stack.length === 0 && text.trim()) throw new Error('text outside the root');
    if (lt === -1) break;
    rest = rest.slice(lt);
    const close = /^<\/([\w-]+)\s*>/.exec(rest);
    if (close) {
      if (stack.pop() !== close[1]) throw new Error(`unexpected </${close[1]}>`);
      rest = rest.slice(close[0].length);
      continue;
    }
    const open = /^<([\w-]+)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>/.exec(rest);
    if (!open) throw new Error(`bad tag at ${JSON.stringify(rest.slice(0, 60))}`);
    if (stack.length === 0 && ++roots > 1) throw new Error('two roots');
    const attributes: Record<string, string> = {};
    for (const [, key, value] of open[2]!.matchAll(/([\w-]+)="([^"]*)"/g)) {
      if (key! in attributes) throw new Error(`duplicate attribute ${key}`);
      if (/&(?!(#\d+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);)/.test(value!)) throw new Error(`stray & in ${key}`);
      attributes[key!] = decode(value!);
    }
    elements.push({ name: open[1]!, attributes });
    if (open[3] !== '/') stack.push(open[1]!);
    rest = rest.slice(open[0].length);
  }
  if (stack.length > 0) throw new Error(`unclosed ${stack.join(' > ')}`);
  if (roots !== 1) throw new Error('no root');
  return elements;
}

/** "1001/30000s", "2s", "0s" back to an exact fraction [num, den]. */
function rational(value: string): [number, number] {
  const match = /^(\d+)(?:\/(\d+))?s$/.exec(value);
  if (!match) throw new Error(`not rational seconds: ${value}`);
  return [Number(match[1]), match[2] ? Number(match[2]) : 1];
}
/** Seconds [n, d] at `rate` as frames, exactly (n/d × num/den must be whole). */
function toFrames([n, d]: [number, number], rate: FrameRate): number {
  const numerator = n * rate.num;
  const denominator = d * rate.den;
  if (numerator % denominator !== 0) throw new Error(`${n}/${d}s is not on a frame boundary`);
  return numerator / denominator;
}

describe('toFcpxml', () => {
  it.each([
    ['29.97', R2997, '1001/30000s', 'DF'],
    ['23.976', R23976, '1001/24000s', 'NDF'],
    ['25', R25, '1/25s', 'NDF'],
  ])('is well-formed FCPXML 1.9 with a marker on each comment’s frame at %s', (_, rate, frameDuration, tcFormat) => {
    const elements = checkXml(toFcpxml(input(rate)));
    expect(elements[0]).toEqual({ name: 'fcpxml', attributes: { version: '1.9' } });
    const format = elements.find((e) => e.name === 'format')!;
    expect(format.attributes.frameDuration).toBe(frameDuration);
    const sequence = elements.find((e) => e.name === 'sequence')!;
    expect(sequence.attributes).toMatchObject({ format: format.attributes.id, tcFormat });
    const gap = elements.find((e) => e.name === 'gap')!;
    expect(toFrames(rational(gap.attributes.duration!), rate)).toBe(120000);
    expect(gap.attributes.start).toBe('0s');
    const markers = elements.filter((e) => e.name === 'marker');
    expect(markers).toHaveLength(COMMENTS.length);
    markers.forEach((marker, i) => {
      const comment = SORTED[i]!;
      expect(toFrames(rational(marker.attributes.start!), rate)).toBe(comment.frame);
      expect(toFrames(rational(marker.attributes.duration!), rate)).toBe(comment.endFrame ? comment.endFrame - comment.frame : 1);
      expect(marker.attributes.note).toBe(comment.text);
      expect(marker.attributes.completed).toBe(comment.resolved ? '1' : '0');
      expect(marker.attributes.value).not.toMatch(/[\r\n]/);
    });
  });

  it('escapes names and texts', () => {
    const xml = toFcpxml(input(R2997));
    const elements = checkXml(xml);
    expect(elements.find((e) => e.name === 'project')?.attributes.name).toBe('Spring "Launch" <promo> v03');
    const values = elements.filter((e) => e.name === 'marker').map((e) => e.attributes.value);
    expect(values).toContain('<script>: Logo <&> "brand" | pipe');
    expect(values).toContain('@mallory: =HYPERLINK("http://evil.example","click")');
    expect(values).toContain('Ann: Line one line two line three');
    expect(xml).not.toContain('<script>');
  });

  it('drops characters XML cannot carry and carries the picture size when known', () => {
    const xml = toFcpxml(input(R25, { width: 1920, height: 1080, comments: [{ frame: 1, text: 'bell\u0007 here\uD800', author: 'a', resolved: false }] }));
    const elements = checkXml(xml);
    expect(elements.find((e) => e.name === 'marker')?.attributes.note).toBe('bell here');
    expect(elements.find((e) => e.name === 'format')?.attributes).toMatchObject({ width: '1920', height: '1080', frameDuration: '1/25s' });
  });

  it('stretches the timeline to a marker past the known duration', () => {
    const elements = checkXml(toFcpxml(input(R25, { durationFrames: 0, comments: [{ frame: 50, endFrame: 75, text: 'x', author: 'a', resolved: false }] })));
    expect(elements.find((e) => e.name === 'gap')?.attributes.duration).toBe('3s');
  });

  it('rejects broken XML in the checker itself', () => {
    expect(() => checkXml('<a><b></a></b>')).toThrow();
    expect(() => checkXml('<a x="1 & 2"/>')).toThrow();
    expect(() => checkXml('<a>1 < 2</a>')).toThrow();
    expect(() => checkXml('<a/><b/>')).toThrow();
  });
});
