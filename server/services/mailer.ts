import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Links the message carries. Never logged: they hold single-use codes (recovery, invitation)
   * that are as good as a password; a developer finds them in the outbox file.
   */
  links: string[];
  /** Extra headers (`List-Unsubscribe` on review e-mails). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when configured; otherwise each message is written as a real RFC 5322 file to
 * `outboxDir` (nodemailer builds it either way, so the outbox holds what SMTP would send).
 * nodemailer is loaded with the first message (issue 14: not a start's work).
 */
export function createMailer(options: { smtpUrl: string | null; outboxDir: string; from: string; log: FastifyBaseLogger }): Mailer {
  const { smtpUrl, outboxDir, from, log } = options;
  let transporter: Promise<Transporter> | undefined;
  const transport = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      smtpUrl ? nodemailer.createTransport(smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  if (smtpUrl) {
    return {
      async send(message) {
        await (
          await transport()
        ).sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html, headers: message.headers });
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }
  let sequence = 0;
  return {
    async send(message) {
      const info = await (
        await transport()
      ).sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html, headers: message.headers });
      // Readable by the owner only (issue 32): messages hold sign-in and invitation links.
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      sequence += 1;
      const file = join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(sequence).padStart(4, '0')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox');
    },
  };
}
