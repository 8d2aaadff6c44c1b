import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';
import type { BotCheck } from './services/bot-check.ts';
import type { Mailer } from './services/mailer.ts';
import type { RateLimiter } from './services/rate-limiter.ts';
import type { TokenService } from './services/tokens.ts';
import type { ObjectStore } from './storage/object-store.ts';
import type { UploadCredentialIssuer } from './storage/upload-credentials.ts';

/**
 * What every route handler and service may use (`app.ctx`, `request.server.ctx`). The database,
 * object storage and mailer are the plugins' (server/plugins/: `app.db`, `app.storage`,
 * `app.uploadCredentials`, `app.mailer`) and are read through; the rest is buildApp's own.
 */
export interface AppContext {
  config: Config;
  readonly db: Db;
  tokens: TokenService;
  readonly mailer: Mailer;
  botCheck: BotCheck;
  limiter: RateLimiter;
  /** Every object the product keeps (S3 API); connected once the server listens (server/storage/setup.ts). */
  readonly storage: ObjectStore;
  /** Short-lived browser credentials limited to one project's prefix. */
  readonly uploadCredentials: UploadCredentialIssuer;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/**
 * `app.ctx` as a view of the plugins' decorations plus buildApp's own parts. Read through, not
 * copied: the storage plugin replaces `app.storage` with the connected store once the server
 * listens, and every holder of the context sees it.
 */
export function contextOf(app: FastifyInstance, own: Pick<AppContext, 'config' | 'tokens' | 'botCheck' | 'limiter'>): AppContext {
  return {
    ...own,
    get db() {
      return app.db;
    },
    get mailer() {
      return app.mailer;
    },
    get storage() {
      return app.storage;
    },
    get uploadCredentials() {
      return app.uploadCredentials;
    },
  };
}
