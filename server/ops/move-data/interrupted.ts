/**
 * `npm run move-data` stopped by Ctrl-C or SIGTERM (issue 32): it used to die printing nothing,
 * leaving a multipart upload in the target. Now the move stops at the next page of rows or with
 * the object in flight (its multipart upload aborted), and the command says what happened and the
 * command that finishes the move.
 */

export class MoveInterruptedError extends Error {
  /** Keys whose unfinished multipart upload in the target bucket was aborted on the way out. */
  readonly abortedUploads: string[];
  /** The target bucket, when objects were being copied. */
  readonly bucket: string | null;
  constructor(where: string, abortedUploads: string[] = [], bucket: string | null = null) {
    super(`The move stopped while ${where}.`);
    this.name = 'MoveInterruptedError';
    this.abortedUploads = abortedUploads;
    this.bucket = bucket;
  }
}

/** An argument as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A connection string with its password as `***` (the command is printed where logs may keep it). */
function withoutPassword(url: string): { url: string; hidden: boolean } {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return { url, hidden: false };
    parsed.password = '***';
    return { url: parsed.toString(), hidden: true };
  } catch {
    return { url, hidden: false };
  }
}

/**
 * The command that resumes the move: the same arguments (the database password shown as `***`),
 * and `--data-dir` with the directory this run moved when it came from DATA_DIR or the default,
 * so it runs the same from any shell.
 */
export function resumeCommand(args: readonly string[], dataDir: string, env: NodeJS.ProcessEnv): string[] {
  const words = [...args];
  let hidden = false;
  const database = words.indexOf('--to-database');
  if (database >= 0 && words[database + 1] !== undefined) {
    const shown = withoutPassword(words[database + 1]!);
    words[database + 1] = shown.url;
    hidden = shown.hidden;
  }
  if (!words.includes('--data-dir')) words.push('--data-dir', dataDir);
  const notes = [
    ...(hidden ? ['*** is the database password you gave'] : []),
    ...(words.includes('--to-s3-endpoint') && env.MOVE_S3_ACCESS_KEY_ID
      ? ['with MOVE_S3_ACCESS_KEY_ID and MOVE_S3_SECRET_ACCESS_KEY set as they are now']
      : []),
  ];
  return [`  npm run move-data -- ${words.map(shellWord).join(' ')}`, ...(notes.length ? [`  (${notes.join('; ')})`] : [])];
}

/** What the command prints when interrupted by `signal`: what happened, what was cleaned up, how to finish. */
export function interruptedLines(error: MoveInterruptedError, signal: string, resume: string[]): string[] {
  const lines = [`Interrupted by ${signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal}. ${error.message}`];
  if (error.abortedUploads.length)
    lines.push(
      `Aborted the unfinished multipart upload${error.abortedUploads.length > 1 ? 's' : ''} of ${error.abortedUploads.join(', ')} in ${error.bucket ?? 'the target bucket'}: no half-sent object is left there.`,
    );
  lines.push('Nothing is lost: the rows and objects already copied stay in the target and are not copied again, and the data directory is unlocked.');
  lines.push('To finish the move, run the same command again:', ...resume);
  return lines;
}
