/**
 * Start-up marks (issue 14, bench/startup): each step of `npm start` records when it ended, in
 * milliseconds since the process started (`performance.now()`). With CUTDESK_STARTUP_TRACE=1
 * the server prints them as one line on stderr once it listens: `startup-trace {"modules":…}`.
 * No imports: this module must not add to what it measures.
 */
const marks: Record<string, number> = {};

export function startupMark(step: string): void {
  marks[step] = Math.round(performance.now());
}

/** Prints the marks (when CUTDESK_STARTUP_TRACE=1). */
export function printStartupTrace(): void {
  if (process.env.CUTDESK_STARTUP_TRACE === '1') process.stderr.write(`startup-trace ${JSON.stringify(marks)}\n`);
}
