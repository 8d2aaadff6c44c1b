import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createMailer, type Mailer } from '../services/mailer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** SMTP with SMTP_URL, else RFC 5322 files in DATA_DIR/outbox. */
    mailer: Mailer;
  }
}

/** Decorates `app.mailer`. */
export const mailPlugin = fp(
  async function mailPlugin(app: FastifyInstance, { config }: { config: Pick<Config, 'smtpUrl' | 'dataDir' | 'mailFrom'> }) {
    app.decorate('mailer', createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, 'outbox'), from: config.mailFrom, log: app.log }));
  },
  { name: 'cutdesk-mail' },
);
