/** A text bar for the move's progress lines: `[#######         ]`. */
export function progressBar(done: number, total: number, width = 24): string {
  const filled = total ? Math.min(width, Math.round((done / total) * width)) : width;
  return `[${'#'.repeat(filled)}${' '.repeat(width - filled)}]`;
}

/**
 * Progress on stderr: one line redrawn in place on a terminal; on anything else (a log, CI)
 * plain lines, at most one a second, so a long move does not flood the log. `done()` ends the
 * line (and prints the last state a log may have missed).
 */
export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): { line: (text: string) => void; done: () => void } {
  let shown = 0;
  let lastAt = 0;
  let pending: string | null = null;
  if (stream.isTTY) {
    return {
      line: (text) => {
        const fitted = text.slice(0, (stream.columns ?? 100) - 1);
        stream.write(`\r${fitted.padEnd(shown)}`);
        shown = fitted.length;
      },
      done: () => {
        if (shown) stream.write('\n');
        shown = 0;
      },
    };
  }
  return {
    line: (text) => {
      pending = text;
      if (Date.now() - lastAt < 1000) return;
      stream.write(`${text}\n`);
      lastAt = Date.now();
      pending = null;
    },
    done: () => {
      if (pending) stream.write(`${pending}\n`);
      pending = null;
    },
  };
}
