import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';
import type { BotCheck } from './services/bot-check.ts';
import type { Mailer } from './services/mailer.ts';
import type { RateLimiter } from './services/rate-limiter.ts';
import type { TokenService } from './services/tokens.ts';

/** What every route handler may use; built once in buildApp. */
export interface AppContext {
  config: Config;
  db: Db;
  tokens: TokenService;
  mailer: Mailer;
  botCheck: BotCheck;
  limiter: RateLimiter;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
