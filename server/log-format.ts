import { Writable } from 'node:stream';

/** Pino's numeric levels, as a person reads them. */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLORS: Record<number, string> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Fields every line has, shown in the line's head or not at all. */
const HEAD = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId']);

function value(raw: unknown): string {
  if (typeof raw === 'string') return /[\s"=]/.test(raw) ? JSON.stringify(raw) : raw;
  // Durations such as responseTime=3.850003999999899: a tenth of a millisecond is plenty to read.
  if (typeof raw === 'number' && !Number.isInteger(raw)) return raw.toFixed(1);
  return JSON.stringify(raw) ?? String(raw);
}

/**
 * One pino JSON line as a readable one: `12:03:04.567 INFO  [reqId] message key=value …`, with an
 * error's stack on the lines below. Not JSON (a stray write): passed through as it is.
 */
export function prettyLine(line: string, color: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const name = (LEVELS[level] ?? String(level)).padEnd(5);
  const tag = color ? `\x1b[${COLORS[level] ?? '0'}m${name}\x1b[0m` : name;
  const request = entry.reqId ? ` [${String(entry.reqId)}]` : '';
  let stack = '';
  const rest: string[] = [];
  for (const [key, raw] of Object.entries(entry)) {
    if (HEAD.has(key)) continue;
    if (key === 'err' && raw && typeof raw === 'object' && 'stack' in raw) {
      stack = `\n    ${String((raw as { stack: unknown }).stack).replace(/\n/g, '\n    ')}`;
      continue;
    }
    rest.push(`${key}=${value(raw)}`);
  }
  return `${time} ${tag}${request} ${String(entry.msg ?? '')}${rest.length ? ` ${rest.join(' ')}` : ''}${stack}\n`;
}

/**
 * LOG_FORMAT=pretty: a destination for Fastify's logger (pino) that writes readable lines to
 * `out` (the terminal in development). pino-pretty would add a dependency and a worker thread
 * for what one function does; production keeps the JSON lines a log collector reads.
 */
export function prettyLogStream(out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): Writable {
  const color = Boolean(out.isTTY) && !process.env.NO_COLOR;
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString('utf8');
      // pino writes one line per call; split anyway in case a write holds several.
      for (const line of text.split('\n')) if (line) out.write(prettyLine(line, color));
      done();
    },
  });
}
