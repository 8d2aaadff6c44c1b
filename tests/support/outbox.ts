import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface OutboxMessage {
  file: string;
  to: string;
  subject: string;
  raw: string;
  /** Every link in the text part, decoded. */
  links: string[];
}

// nodemailer writes quoted-printable: soft line breaks and =XX escapes.
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function header(raw: string, name: string): string {
  const match = new RegExp(`^${name}: (.*)$`, 'mi').exec(raw);
  return match?.[1]?.trim() ?? '';
}

/** The messages the server wrote to `dataDir/outbox`, oldest first. */
export async function readOutbox(dataDir: string): Promise<OutboxMessage[]> {
  const dir = join(dataDir, 'outbox');
  const files = await readdir(dir).catch(() => [] as string[]);
  const messages: OutboxMessage[] = [];
  for (const file of files.filter((f) => f.endsWith('.eml')).sort()) {
    const raw = await readFile(join(dir, file), 'utf8');
    const decoded = decodeQuotedPrintable(raw);
    const links = [...new Set(decoded.match(/https?:\/\/[^\s"<>]+/g) ?? [])].map((l) => l.replace(/&amp;/g, '&'));
    messages.push({ file, to: header(raw, 'To'), subject: header(raw, 'Subject'), raw: decoded, links });
  }
  return messages;
}

/**
 * The newest /change-password link sent to `email`. Recovery mails are sent after the answer
 * (so its timing says nothing about the account): the link is waited for, up to `waitMs`.
 */
export async function changePasswordLink(dataDir: string, email: string, waitMs = 5_000): Promise<URL> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const messages = (await readOutbox(dataDir)).filter((m) => m.to.includes(email));
    const link = messages.at(-1)?.links.find((l) => l.includes('/change-password?'));
    if (link) return new URL(link);
    if (Date.now() >= deadline) throw new Error(`no change-password link for ${email} in the outbox`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
