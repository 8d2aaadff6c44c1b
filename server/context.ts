import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';
import type { BotCheck } from './services/bot-check.ts';
import type { Mailer } from './services/mailer.ts';
import type { RateLimiter } from './services/rate-limiter.ts';
import type { TokenService } from './services/tokens.ts';
import type { ObjectStore } from './storage/object-store.ts';
import type { UploadCredentialIssuer } from './storage/upload-credentials.ts';

/** What every route handler may use; built once in buildApp. */
export interface AppContext {
  config: Config;
  db: Db;
  tokens: TokenService;
  mailer: Mailer;
  botCheck: BotCheck;
  limiter: RateLimiter;
  /** Every object the product keeps (S3 API); connected once the server listens (server/storage/setup.ts). */
  storage: ObjectStore;
  /** Short-lived browser credentials limited to one project's prefix. */
  uploadCredentials: UploadCredentialIssuer;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
